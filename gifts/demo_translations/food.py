# ruff: noqa: RUF001 - words in other scripts are the point
"""Food templates in pl, uk, ru and zh-hans (the format: gifts.demo_translations)."""

TEMPLATES = """
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
pl | Kolekcja herbat liściastych | zielonych; ziołowych; śniadaniowych | Sześć puszek herbaty liściastej z instrukcją parzenia każdej mieszanki.
uk | Колекція розсипного чаю | зелений; трав'яний; сніданковий | Шість бляшанок листового чаю з порадами щодо заварювання кожного купажу.
ru | Коллекция листового чая | зелёный; травяной; для завтрака | Шесть жестяных банок листового чая с советами по завариванию каждого купажа.
zh-hans | 散叶茶礼盒 | 绿茶; 花草茶; 早餐茶 | 六罐整叶茶，每种茶都附冲泡指南。
== food | Red Wine Duo
pl | Duet win czerwonych | toskańskich; pinot noir; rioja | Dwie butelki wybrane przez sommeliera, z propozycjami do kolacji.
uk | Дует червоних вин | тосканських; піно нуар; ріоха | Дві пляшки, обрані сомельє, з порадами щодо поєднання з вечерею.
ru | Дуэт красных вин | тосканских; пино нуар; риоха | Две бутылки, выбранные сомелье, с советами по сочетанию с ужином.
zh-hans | 红葡萄酒双支装 | 托斯卡纳; 黑皮诺; 里奥哈 | 侍酒师精选的两瓶酒，附晚餐搭配建议。
== food | Hot Sauce Sampler
pl | Zestaw ostrych sosów | wędzonych; ekstra ostrych; rzemieślniczych | Sosy z małych partii, od łagodnych i wędzonych po naprawdę ogniste.
uk | Набір гострих соусів | копчених; екстрагострих; крафтових | Соуси малих партій — від м'яких і копчених до по-справжньому пекучих.
ru | Набор острых соусов | копчёных; экстраострых; крафтовых | Соусы малых партий — от мягких и копчёных до по-настоящему жгучих.
zh-hans | 辣酱品鉴套装 | 烟熏; 特辣; 手工 | 小批量辣酱，从温和烟熏到火辣过瘾。
== food | Cheese Board Gift Box
pl | Zestaw serów na deskę | rzemieślnicze; francuskie; dojrzewające | Trzy dojrzewające sery, krakersy i dżem figowy do wspólnego jedzenia.
uk | Подарункова сирна тарілка | крафтова; французька; витримана | Три витримані сири, крекери й інжирний джем, щоб розділити з друзями.
ru | Подарочная сырная тарелка | крафтовая; французская; выдержанная | Три выдержанных сыра, крекеры и инжирный джем, чтобы разделить с друзьями.
zh-hans | 奶酪拼盘礼盒 | 手工; 法式; 陈年 | 三款陈年奶酪、饼干和无花果酱，适合分享。
== food | Olive Oil Set
pl | Zestaw oliw | extra virgin; aromatyzowanych; degustacyjny | Oliwy tłoczone na zimno do skrapiania, maczania i wykańczania potraw.
uk | Набір оливкових олій | extra virgin; ароматизованих; дегустаційний | Олії холодного віджиму для заправки, вмочування та завершення страв.
ru | Набор оливковых масел | extra virgin; ароматизированных; дегустационный | Масла холодного отжима для заправки, макания и завершения блюд.
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
uk | Набір сумішей спецій | з усього світу; барбекю; індійське карі | Свіжомелені суміші, що роблять звичайну вечерю особливою.
ru | Набор смесей специй | со всего мира; барбекю; индийское карри | Свежемолотые смеси, которые делают обычный ужин особенным.
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
"""
