# ruff: noqa: RUF001 - words in other scripts are the point
"""Garden templates in pl, uk, ru and zh-hans (the format: gifts.demo_translations)."""

TEMPLATES = """
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
"""
