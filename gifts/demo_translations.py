# ruff: noqa: RUF001 - words in other scripts are the point
"""The demo catalog in pl, uk, ru and zh-hans (pure data: no Django).

The demo products are built from templates (gifts.demo_catalog), so the templates are
translated: a template's noun, its variants and its sentence of description, per language.
A product's name is its noun and variant in the language's order, its description the
sentence and a closing line naming its interests by their labels (gifts.interest_vocabulary).
A template not translated here shows its English text in every language (the fallback).
"""

from __future__ import annotations

from gifts.demo_catalog import TEST_PRODUCTS, family_of, mentioned_tags, template_variants
from gifts.interest_vocabulary import vocabulary_rows

LANGUAGES = ("pl", "uk", "ru", "zh-hans")
_NAMES = {
    "pl": "{noun} ({variant})",
    "uk": "{noun} ({variant})",
    "ru": "{noun} ({variant})",
    "zh-hans": "{variant}{noun}",
}
_CLOSERS = {
    "pl": "Dla osób, które lubią: {interests}.",
    "uk": "Для тих, хто любить: {interests}.",
    "ru": "Для тех, кто любит: {interests}.",
    "zh-hans": "适合喜欢{interests}的人。",
}
_LIST_SEPARATORS = {"pl": ", ", "uk": ", ", "ru": ", ", "zh-hans": "、"}
_SENTENCE_GAPS = {"zh-hans": ""}

# "== category | English noun", then one line per language: noun | variants (;) | sentence
_TEMPLATES = """
== garden | Herb Garden Kit
pl | Zestaw do uprawy ziół | do domu; na parapet; hydroponiczny | Bazylia, mięta i pietruszka przez cały rok, zawsze świeże do gotowania.
uk | Набір для вирощування зелені | для дому; підвіконний; гідропонний | Базилік, м'ята й петрушка цілий рік — завжди свіжі для кухні.
ru | Набор для выращивания зелени | для дома; подоконный; гидропонный | Базилик, мята и петрушка круглый год — всегда свежие для кухни.
zh-hans | 香草种植套装 | 室内; 窗台; 水培 | 一年四季种植罗勒、薄荷和欧芹，随时用于烹饪。
== garden | Pruning Shears
pl | Sekator | nożycowy; ergonomiczny; wzmocniony | Ostre ostrza ze sprężyną do czystego cięcia róż i krzewów.
uk | Секатор | площинний; ергономічний; посилений | Гострі леза з пружиною для чистого зрізу троянд і кущів.
ru | Секатор | плоскостной; эргономичный; усиленный | Острые лезвия с пружиной для чистого среза роз и кустарников.
zh-hans | 修枝剪 | 剪刀式; 人体工学; 重型 | 锋利的弹簧刀片，干净利落地修剪玫瑰和灌木。
== garden | Ceramic Planter
pl | Ceramiczna doniczka | szkliwiona; samonawadniająca; wisząca | Doniczka z odpływem, w której rośliny domowe wyglądają najlepiej.
uk | Керамічний вазон | глазурований; з автополивом; підвісний | Вазон із дренажем, у якому кімнатні рослини виглядають найкраще.
ru | Керамическое кашпо | глазурованное; с автополивом; подвесное | Кашпо с дренажем, в котором комнатные растения смотрятся лучше всего.
zh-hans | 陶瓷花盆 | 釉面; 自动吸水; 悬挂式 | 排水良好的花盆，让室内植物更出彩。
== garden | Gardening Tool Set
pl | Zestaw narzędzi ogrodniczych | 3-częściowy; nierdzewny; z jesionowymi trzonkami | Łopatka, sadzak i pazurki, które posłużą przez wiele sezonów.
uk | Набір садових інструментів | із 3 предметів; нержавіючий; з ясеневими ручками | Совок, посадковий совок і розпушувач, що служитимуть багато сезонів.
ru | Набор садовых инструментов | из 3 предметов; нержавеющий; с ясеневыми ручками | Совок, посадочный совок и рыхлитель, которые прослужат много сезонов.
zh-hans | 园艺工具套装 | 三件套; 不锈钢; 白蜡木柄 | 小铲、移苗铲和松土耙，经久耐用，陪伴许多季节。
== garden | Bird Feeder
pl | Karmnik dla ptaków | miedziany; okienny; odporny na wiewiórki | Zwabia zięby i ptaki śpiewające tak blisko, że widać je z kuchni.
uk | Годівниця для птахів | мідна; віконна; захищена від білок | Приваблює в'юрків і співочих птахів так близько, що їх видно з кухні.
ru | Кормушка для птиц | медная; оконная; защищённая от белок | Привлекает зябликов и певчих птиц так близко, что их видно из кухни.
zh-hans | 喂鸟器 | 铜制; 窗挂式; 防松鼠 | 吸引雀鸟和鸣禽靠近，在厨房就能观赏。
== garden | Raised Garden Bed
pl | Podwyższona grządka | cedrowa; ocynkowana; kompaktowa | Łatwa w montażu grządka na warzywa, zioła i kwiaty.
uk | Висока грядка | кедрова; оцинкована; компактна | Грядка, яку легко зібрати, для овочів, зелені й квітів.
ru | Высокая грядка | кедровая; оцинкованная; компактная | Легко собираемая грядка для овощей, зелени и цветов.
zh-hans | 抬高式种植床 | 雪松木; 镀锌; 紧凑型 | 安装简便，可种蔬菜、香草和花卉。
== garden | Succulent Collection
pl | Kolekcja sukulentów | mini; rzadkie; pustynne | Wytrzymałe, niewymagające sukulenty na gotowej do podarowania tacy.
uk | Колекція сукулентів | міні; рідкісні; пустельні | Витривалі й невибагливі сукуленти на подарунковому піддоні.
ru | Коллекция суккулентов | мини; редкие; пустынные | Выносливые и неприхотливые суккуленты на подарочном поддоне.
zh-hans | 多肉植物组合 | 迷你; 稀有; 沙漠 | 耐旱好养的多肉植物，装在礼盒托盘中。
== garden | Garden Kneeler
pl | Klęcznik ogrodowy | składany; wyściełany; z poduszką | Chroni kolana przy pieleniu, a po obróceniu służy jako siedzisko.
uk | Садова підставка для колін | складна; м'яка; з подушкою | Береже коліна під час прополювання і перетворюється на сидіння.
ru | Садовая подставка для коленей | складная; мягкая; с подушкой | Бережёт колени при прополке и превращается в сиденье.
zh-hans | 园艺跪凳 | 折叠; 加厚; 软垫 | 除草时保护膝盖，翻过来就是一张小凳。
== garden | Seed Starter Kit
pl | Zestaw do wysiewu | kwiaty polne; warzywa; pomidory tradycyjne | Nasiona, biodegradowalne doniczki i krążki ziemi, by założyć ogród od zera.
uk | Набір для розсади | польові квіти; овочі; старовинні томати | Насіння, біорозкладні горщики й таблетки ґрунту, щоб почати сад з нуля.
ru | Набор для рассады | полевые цветы; овощи; старинные томаты | Семена, биоразлагаемые горшки и таблетки грунта, чтобы начать сад с нуля.
zh-hans | 育苗套装 | 野花; 蔬菜; 传家番茄 | 种子、可降解花盆和营养土块，从零开始打造花园。
== garden | Watering Can
pl | Konewka | mosiężna; ocynkowana; domowa | Długi dziobek do delikatnego, precyzyjnego podlewania sadzonek i doniczek.
uk | Лійка | латунна; оцинкована; кімнатна | Довгий носик для м'якого, точного поливу розсади та вазонів.
ru | Лейка | латунная; оцинкованная; комнатная | Длинный носик для мягкого, точного полива рассады и горшков.
zh-hans | 浇水壶 | 黄铜; 镀锌; 室内 | 长壶嘴，轻柔精准地浇灌幼苗和盆栽。
== garden | Solar Lights
pl | Lampy solarne | ścieżkowe; latarenki; girlanda | Ładują się za dnia, a nocą łagodnie oświetlają ścieżki i tarasy.
uk | Сонячні ліхтарі | для доріжок; ліхтарики; гірлянда | Заряджаються вдень і м'яко світять уздовж доріжок і терас уночі.
ru | Солнечные фонари | для дорожек; фонарики; гирлянда | Заряжаются днём и мягко светят вдоль дорожек и террас ночью.
zh-hans | 太阳能灯 | 花园小径; 灯笼; 串灯 | 白天充电，夜晚沿小径和露台柔和发光。
== garden | Compost Bin
pl | Kompostownik | na blat; obrotowy; z dżdżownicami | Zamienia resztki z kuchni w żyzny kompost do ogrodu.
uk | Компостер | настільний; барабанний; з черв'яками | Перетворює кухонні залишки на поживний компост для саду.
ru | Компостер | настольный; барабанный; с червями | Превращает кухонные отходы в питательный компост для сада.
zh-hans | 堆肥桶 | 台面; 滚筒; 蚯蚓 | 把厨余变成肥沃的堆肥，滋养花园。
== garden | Bonsai Tree Kit
pl | Zestaw do bonsai | jałowiec; startowy; klon japoński | Wszystko, czego trzeba, by cierpliwie kształtować żywe miniaturowe drzewko.
uk | Набір для бонсаю | ялівець; стартовий; японський клен | Усе, щоб терпляче формувати живе мініатюрне дерево.
ru | Набор для бонсай | можжевельник; стартовый; японский клён | Всё, чтобы терпеливо формировать живое миниатюрное дерево.
zh-hans | 盆景套装 | 杜松; 入门; 日本红枫 | 塑造一棵活的微缩树所需的一切，慢慢来。
== garden | Gardening Gloves
pl | Rękawice ogrodnicze | skórzane; bambusowe; odporne na kolce | Przewiewne, chwytne rękawice chroniące dłonie przed kolcami i ziemią.
uk | Садові рукавички | шкіряні; бамбукові; захищені від колючок | Дихаючі рукавички з хватом, що захищають руки від колючок і ґрунту.
ru | Садовые перчатки | кожаные; бамбуковые; защищённые от шипов | Дышащие перчатки с хорошим хватом, защищают руки от шипов и земли.
zh-hans | 园艺手套 | 皮革; 竹纤维; 防刺 | 透气防滑，保护双手免受尖刺和泥土伤害。
== food | Chocolate Truffle Box
pl | Pudełko trufli czekoladowych | gorzkie; słony karmel; mieszane | Ręcznie toczone trufle z jedwabistym ganache w środku.
uk | Коробка шоколадних трюфелів | чорний шоколад; солона карамель; асорті | Трюфелі ручної роботи з шовковистою начинкою ганаш.
ru | Коробка шоколадных трюфелей | тёмный шоколад; солёная карамель; ассорти | Трюфели ручной работы с шелковистой начинкой ганаш.
zh-hans | 松露巧克力礼盒 | 黑巧克力; 海盐焦糖; 什锦 | 手工滚制的松露巧克力，内含丝滑甘纳许。
== food | Coffee Bean Sampler
pl | Zestaw degustacyjny kawy ziarnistej | single origin; do espresso; jasno palona | Świeżo palone ziarna z małych plantacji, z notami smakowymi.
uk | Дегустаційний набір кави в зернах | моносорт; еспресо-обсмаження; світле обсмаження | Свіжообсмажені зерна з невеликих ферм, з нотатками смаку.
ru | Дегустационный набор кофе в зёрнах | моносорт; обжарка под эспрессо; светлая обжарка | Свежеобжаренные зёрна с небольших ферм, с нотами вкуса.
zh-hans | 咖啡豆品鉴套装 | 单一产地; 意式烘焙; 浅烘焙 | 来自小农场的新鲜烘焙咖啡豆，附风味说明。
== food | Loose Leaf Tea Collection
pl | Kolekcja herbat liściastych | zielona; ziołowa; śniadaniowa | Sześć puszek herbaty liściastej z instrukcją parzenia każdej mieszanki.
uk | Колекція розсипного чаю | зелений; трав'яний; сніданковий | Шість бляшанок листового чаю з порадами щодо заварювання кожного купажу.
ru | Коллекция листового чая | зелёный; травяной; для завтрака | Шесть жестяных банок листового чая с советами по завариванию каждого купажа.
zh-hans | 散叶茶礼盒 | 绿茶; 花草茶; 早餐茶 | 六罐整叶茶，每种茶都附冲泡指南。
== food | Red Wine Duo
pl | Duet win czerwonych | toskańskie; pinot noir; rioja | Dwie butelki wybrane przez sommeliera, z propozycjami do kolacji.
uk | Дует червоних вин | тосканські; піно нуар; ріоха | Дві пляшки, обрані сомельє, з порадами щодо поєднання з вечерею.
ru | Дуэт красных вин | тосканские; пино нуар; риоха | Две бутылки, выбранные сомелье, с советами по сочетанию с ужином.
zh-hans | 红葡萄酒双支装 | 托斯卡纳; 黑皮诺; 里奥哈 | 侍酒师精选的两瓶酒，附晚餐搭配建议。
== food | Hot Sauce Sampler
pl | Zestaw ostrych sosów | wędzone; ekstra ostre; rzemieślnicze | Sosy z małych partii, od łagodnych i wędzonych po naprawdę ogniste.
uk | Набір гострих соусів | копчені; екстрагострі; крафтові | Соуси малих партій — від м'яких і копчених до по-справжньому пекучих.
ru | Набор острых соусов | копчёные; экстраострые; крафтовые | Соусы малых партий — от мягких и копчёных до по-настоящему жгучих.
zh-hans | 辣酱品鉴套装 | 烟熏; 特辣; 手工 | 小批量辣酱，从温和烟熏到火辣过瘾。
== food | Cheese Board Gift Box
pl | Zestaw serów na deskę | rzemieślnicze; francuskie; dojrzewające | Trzy dojrzewające sery, krakersy i dżem figowy do wspólnego jedzenia.
uk | Подарункова сирна тарілка | крафтова; французька; витримана | Три витримані сири, крекери й інжирний джем, щоб розділити з друзями.
ru | Подарочная сырная тарелка | крафтовая; французская; выдержанная | Три выдержанных сыра, крекеры и инжирный джем, чтобы разделить с друзьями.
zh-hans | 奶酪拼盘礼盒 | 手工; 法式; 陈年 | 三款陈年奶酪、饼干和无花果酱，适合分享。
== food | Olive Oil Set
pl | Zestaw oliw | extra virgin; aromatyzowane; degustacyjny | Oliwy tłoczone na zimno do skrapiania, maczania i wykańczania potraw.
uk | Набір оливкових олій | extra virgin; ароматизовані; дегустаційний | Олії холодного віджиму для заправки, вмочування та завершення страв.
ru | Набор оливковых масел | extra virgin; ароматизированные; дегустационный | Масла холодного отжима для заправки, макания и завершения блюд.
zh-hans | 橄榄油套装 | 特级初榨; 风味; 品鉴 | 冷榨橄榄油，可淋、可蘸，为菜肴画龙点睛。
== food | Baking Mix Kit
pl | Zestaw do pieczenia | zakwas; ciasteczka; brownie | Wszystko odmierzone na wesołe popołudnie pieczenia.
uk | Набір для випікання | закваска; печиво; брауні | Усе вже відміряно для веселого дня випічки.
ru | Набор для выпечки | закваска; печенье; брауни | Всё уже отмерено для весёлого дня выпечки.
zh-hans | 烘焙预拌套装 | 酸面团酵种; 曲奇; 布朗尼 | 材料都已称好，享受一个欢乐的烘焙午后。
== food | Sparkling Wine
pl | Wino musujące | prosecco; crémant; rosé | Rześka, świąteczna butelka na toasty i uroczystości.
uk | Ігристе вино | просекко; креман; розе | Свіжа святкова пляшка для тостів і урочистостей.
ru | Игристое вино | просекко; креман; розе | Свежая праздничная бутылка для тостов и торжеств.
zh-hans | 起泡酒 | 普罗塞克; 克雷芒; 桃红 | 清爽喜庆的一瓶，适合祝酒和庆祝。
== food | Gourmet Snack Basket
pl | Kosz przekąsek dla smakoszy | wytrawny; słodko-słony; zdrowy | Obfity kosz orzechów, krakersów i smakołyków do dzielenia się.
uk | Кошик делікатесних снеків | солоний; солодко-солоний; корисний | Щедрий кошик горіхів, крекерів і ласощів, щоб пригощати.
ru | Корзина деликатесных закусок | солёная; сладко-солёная; полезная | Щедрая корзина орехов, крекеров и лакомств, чтобы угощать.
zh-hans | 美食零食篮 | 咸味; 甜咸; 健康 | 满满一篮坚果、饼干和小点心，适合分享。
== food | Craft Beer Sampler
pl | Zestaw piw rzemieślniczych | IPA; belgijskie; z lokalnego browaru | Sześć piw od niezależnych browarów, z kartami degustacyjnymi.
uk | Набір крафтового пива | IPA; бельгійське; з місцевої броварні | Шість сортів пива від незалежних броварів, з дегустаційними картками.
ru | Набор крафтового пива | IPA; бельгийское; с местной пивоварни | Шесть сортов пива от независимых пивоварен, с дегустационными карточками.
zh-hans | 精酿啤酒品鉴套装 | IPA; 比利时; 本地酒厂 | 六款独立酒厂的精酿啤酒，附品鉴卡。
== food | Spice Blend Set
pl | Zestaw mieszanek przypraw | ze świata; BBQ; curry indyjskie | Świeżo mielone mieszanki, które zmieniają zwykłe obiady w coś wyjątkowego.
uk | Набір сумішей спецій | світові; барбекю; індійське карі | Свіжомелені суміші, що роблять звичайну вечерю особливою.
ru | Набор смесей специй | мировые; барбекю; индийское карри | Свежемолотые смеси, которые делают обычный ужин особенным.
zh-hans | 香料调味套装 | 环球风味; 烧烤; 印度咖喱 | 现磨调味料，让家常晚餐变得与众不同。
== food | Honey Tasting Set
pl | Zestaw degustacyjny miodów | wielokwiatowy; surowy; manuka | Słoiki miodu z jednego źródła z drewnianą łyżką do miodu.
uk | Дегустаційний набір меду | різнотрав'я; сирий; манука | Баночки меду з одного джерела та дерев'яна ложка для меду.
ru | Дегустационный набор мёда | разнотравье; сырой; манука | Баночки мёда из одного источника и деревянная ложка для мёда.
zh-hans | 蜂蜜品鉴套装 | 百花; 生蜜; 麦卢卡 | 单一产地的蜂蜜，配木质蜂蜜棒。
== food | Hot Chocolate Gift Set
pl | Zestaw gorącej czekolady | miętowa; klasyczna; korzenna | Gęsta czekolada do picia, pianki i kubek na chłodne wieczory.
uk | Подарунковий набір гарячого шоколаду | м'ятний; класичний; пряний | Густий шоколад для пиття, маршмелоу й горнятко для холодних вечорів.
ru | Подарочный набор горячего шоколада | мятный; классический; пряный | Густой шоколад для питья, маршмеллоу и кружка для холодных вечеров.
zh-hans | 热巧克力礼盒 | 薄荷; 经典; 香料 | 浓郁的热巧克力、棉花糖和马克杯，温暖寒冷的夜晚。
== music | Acoustic Guitar
pl | Gitara akustyczna | dreadnought; parlor; podróżna | Gitara z litą płytą, ciepłym brzmieniem i wygodną, niską akcją strun.
uk | Акустична гітара | дредноут; парлор; дорожня | Гітара з масивною декою, теплим звуком і зручною низькою акцією.
ru | Акустическая гитара | дредноут; парлор; дорожная | Гитара с массивной декой, тёплым звуком и удобной низкой мензурой струн.
zh-hans | 木吉他 | 大琴身; 小琴身; 旅行 | 单板吉他，音色温暖，弦距低、易弹奏。
== music | Vinyl Record Player
pl | Gramofon | w walizce; Bluetooth; z napędem paskowym | Odtwarza płyty 33 i 45 obr./min, ma wbudowane głośniki i wyjście liniowe.
uk | Програвач вінілу | у валізі; Bluetooth; з пасовим приводом | Грає платівки на 33 і 45 об/хв, має вбудовані динаміки й лінійний вихід.
ru | Проигрыватель винила | в чемодане; Bluetooth; с пассиковым приводом | Играет пластинки на 33 и 45 об/мин, есть встроенные динамики и линейный выход.
zh-hans | 黑胶唱机 | 手提箱; 蓝牙; 皮带传动 | 支持 33 和 45 转唱片，内置音箱并带线路输出。
== music | Ukulele
pl | Ukulele | sopranowe; koncertowe; tenorowe | Jasno brzmiące, łatwe do nauki ukulele z pokrowcem i stroikiem.
uk | Укулеле | сопрано; концертне; тенор | Дзвінке укулеле, яке легко опанувати, з чохлом і тюнером.
ru | Укулеле | сопрано; концертное; тенор | Звонкое укулеле, которое легко освоить, с чехлом и тюнером.
zh-hans | 尤克里里 | 高音; 音乐会; 次中音 | 音色明亮、易学的尤克里里，附琴包和调音器。
== music | Harmonica
pl | Harmonijka | bluesowa; chromatyczna; dla początkujących | Kieszonkowy instrument z książeczką lekcji na dobry początek.
uk | Губна гармоніка | блюзова; хроматична; для початківців | Кишеньковий інструмент із буклетом уроків для початку.
ru | Губная гармошка | блюзовая; хроматическая; для начинающих | Карманный инструмент с буклетом уроков для начала.
zh-hans | 口琴 | 布鲁斯; 半音阶; 入门 | 口袋大小的乐器，附入门教程小册子。
== music | Kalimba
pl | Kalimba | 17-klawiszowa; mahoniowa; kryształowa | Pianino kciukowe o kojącym brzmieniu pozytywki.
uk | Калімба | 17 язичків; махагонова; кришталева | Пальцеве піаніно з заспокійливим звуком музичної скриньки.
ru | Калимба | 17 язычков; махагоновая; хрустальная | Пальцевое пианино с успокаивающим звуком музыкальной шкатулки.
zh-hans | 卡林巴琴 | 17 音; 桃花心木; 水晶 | 拇指琴，音色如八音盒般舒缓。
"""

# The fixed test products, translated whole: sku → language → (name, description).
_FIXED = {
    "GG-TEST-LAST3": {
        "pl": ("Limitowane filiżanki do espresso", "Dwie porcelanowe filiżanki do espresso z krótkiej, limitowanej serii. Dla osób, które lubią: kawa, gotowanie."),
        "uk": ("Лімітовані чашки для еспресо", "Дві порцелянові чашки для еспресо з невеликої лімітованої серії. Для тих, хто любить: кава, кулінарія."),
        "ru": ("Лимитированные чашки для эспрессо", "Две фарфоровые чашки для эспрессо из небольшой лимитированной серии. Для тех, кто любит: кофе, кулинария."),
        "zh-hans": ("限量版意式浓缩咖啡杯", "小批量限量生产的两只瓷质浓缩咖啡杯。适合喜欢咖啡、烹饪的人。"),
    },
    "GG-TEST-SOLDOUT": {
        "pl": ("Wyprzedany czajnik do przelewu", "Czajnik z wąską wylewką do powolnego, równego parzenia kawy. Obecnie wyprzedany."),
        "uk": ("Розпроданий чайник для пуровера", "Чайник із вузьким носиком для повільного, рівномірного заварювання кави. Наразі розпроданий."),
        "ru": ("Распроданный чайник для пуровера", "Чайник с узким носиком для медленного, равномерного заваривания кофе. Сейчас распродан."),
        "zh-hans": ("已售罄的手冲壶", "细长壶嘴，适合缓慢均匀地手冲咖啡。目前已售罄。"),
    },
    "GG-TEST-GONE": {
        "pl": ("Wycofana waga do kawy", "Waga z wbudowanym minutnikiem do odmierzania porcji kawy. Nie jest już produkowana."),
        "uk": ("Знята з виробництва ваги для кави", "Ваги з вбудованим таймером для зважування порцій кави. Більше не випускаються."),
        "ru": ("Снятые с производства весы для кофе", "Весы со встроенным таймером для взвешивания порций кофе. Больше не выпускаются."),
        "zh-hans": ("已停产的咖啡秤", "内置计时器的咖啡秤，用于称量咖啡粉。已停产。"),
    },
}  # fmt: skip


def _templates() -> dict[str, dict[str, tuple[str, tuple[str, ...], str]]]:
    """family → language → (noun, variants, sentence)."""
    found: dict[str, dict[str, tuple[str, tuple[str, ...], str]]] = {}
    family = ""
    for line in _TEMPLATES.strip().splitlines():
        if line.startswith("=="):
            category, noun = (cell.strip() for cell in line[2:].split("|"))
            family = family_of(category, noun)
            continue
        language, noun, variants, sentence = (cell.strip() for cell in line.split("|"))
        found.setdefault(family, {})[language] = (
            noun,
            tuple(v.strip() for v in variants.split(";")),
            sentence,
        )
    return found


def demo_translations(products: list[dict]) -> list[dict]:
    """Name and description per language for each demo product whose template is translated:
    dicts of sku, language, name, description."""
    labels = {(tag, language): label for tag, language, label, _ in vocabulary_rows()}
    english = template_variants()
    translated = _templates()
    fixed_skus = {product["sku"] for product in TEST_PRODUCTS}
    rows = []
    for product in products:
        if product["sku"] in fixed_skus:
            for language, (name, description) in _FIXED.get(product["sku"], {}).items():
                rows.append(
                    {
                        "sku": product["sku"],
                        "language": language,
                        "name": name,
                        "description": description,
                    }
                )
            continue
        by_language = translated.get(product.get("family", ""))
        if not by_language:
            continue
        noun, variants = english[product["family"]]
        index = variants.index(product["name"][: -len(noun) - 1])
        mentioned = mentioned_tags(product["tags"])
        for language, (local_noun, local_variants, sentence) in by_language.items():
            interests = _LIST_SEPARATORS[language].join(
                labels.get((tag, language), tag) for tag in mentioned
            )
            rows.append(
                {
                    "sku": product["sku"],
                    "language": language,
                    "name": _NAMES[language].format(noun=local_noun, variant=local_variants[index]),
                    "description": _SENTENCE_GAPS.get(language, " ").join(
                        (sentence, _CLOSERS[language].format(interests=interests))
                    ),
                }
            )
    return rows
