# ruff: noqa: RUF001 - words in other scripts are the point
"""Home templates in pl, uk, ru and zh-hans (the format: gifts.demo_translations)."""

TEMPLATES = """
== home | Scented Candle
pl | Świeca zapachowa | sojowa; z trzema knotami; z drewnianym knotem | Czysto paląca się świeca, która wypełnia pokój ciepłym zapachem.
uk | Ароматична свічка | соєва; з трьома ґнотами; з дерев'яним ґнотом | Свічка, що горить чисто й наповнює кімнату теплим ароматом.
ru | Ароматическая свеча | соевая; с тремя фитилями; с деревянным фитилём | Свеча, которая горит чисто и наполняет комнату тёплым ароматом.
zh-hans | 香薰蜡烛 | 大豆蜡; 三芯; 木芯 | 燃烧洁净，让房间弥漫温暖的香气。
== home | Throw Blanket
pl | Pled | z grubej dzianiny; sherpa; bawełniany waflowy | Miękki pled w dużym rozmiarze na wieczory na kanapie.
uk | Плед | крупної в'язки; шерпа; бавовняний вафельний | М'який плед великого розміру для вечорів на дивані.
ru | Плед | крупной вязки; шерпа; хлопковый вафельный | Мягкий плед большого размера для вечеров на диване.
zh-hans | 盖毯 | 粗针织; 羊羔绒; 华夫格棉 | 柔软宽大的盖毯，适合沙发上的夜晚。
== home | Picture Frame
pl | Ramka na zdjęcia | orzechowa; mosiężna; zestaw galeryjny | Eksponuje ulubione zdjęcia z wyraźnym passe-partout i prawdziwym szkłem.
uk | Фоторамка | горіхова; латунна; галерейний набір | Показує улюблені фото з чітким паспарту та справжнім склом.
ru | Фоторамка | ореховая; латунная; галерейный набор | Показывает любимые фото с чётким паспарту и настоящим стеклом.
zh-hans | 相框 | 胡桃木; 黄铜; 画廊组合 | 利落的卡纸配真玻璃，展示你最爱的照片。
== home | Essential Oil Diffuser
pl | Dyfuzor olejków eterycznych | ceramiczny; z imitacją drewna; ultradźwiękowy | Cichy dyfuzor mgiełki z łagodnym światłem i automatycznym wyłączaniem.
uk | Дифузор для ефірних олій | керамічний; під дерево; ультразвуковий | Тихий дифузор-зволожувач з м'яким підсвічуванням та автовимкненням.
ru | Диффузор для эфирных масел | керамический; под дерево; ультразвуковой | Тихий диффузор-увлажнитель с мягкой подсветкой и автоотключением.
zh-hans | 香薰机 | 陶瓷; 木纹; 超声波 | 静音喷雾，柔和夜灯，自动断电。
== home | Table Lamp
pl | Lampa stołowa | grzybek; rattanowa; ściemnialna | Ciepłe, równe światło i wzór, który pasuje przy łóżku i na biurku.
uk | Настільна лампа | грибок; ротангова; з регулюванням яскравості | Тепле рівне світло й дизайн, що пасує до ліжка чи робочого столу.
ru | Настольная лампа | грибок; ротанговая; с регулировкой яркости | Тёплый ровный свет и дизайн, который подходит к кровати или рабочему столу.
zh-hans | 台灯 | 蘑菇; 藤编; 可调光 | 光线温暖均匀，放床头或书桌都好看。
== home | Wall Clock
pl | Zegar ścienny | w stylu mid-century; industrialny; cichy | Efektowny zegar z cichym, płynnym mechanizmem.
uk | Настінний годинник | мідсенчурі; індустріальний; безшумний | Виразний годинник із тихим плавним ходом.
ru | Настенные часы | мидсенчури; индустриальные; бесшумные | Выразительные часы с тихим плавным ходом.
zh-hans | 挂钟 | 中古风; 工业风; 静音 | 吸睛的挂钟，采用安静的扫秒机芯。
== home | Linen Sheet Set
pl | Lniana pościel | 160 × 200; 180 × 200; stonewashed | Przewiewny, sprany len, który z każdym praniem staje się bardziej miękki.
uk | Лляна постільна білизна | полуторна; двоспальна; варена | Повітропроникний варений льон, що з кожним пранням стає м'якшим.
ru | Льняное постельное бельё | полуторное; двуспальное; варёное | Дышащий варёный лён, который с каждой стиркой становится мягче.
zh-hans | 亚麻床品套装 | 大号; 特大号; 水洗 | 透气的水洗亚麻，越洗越柔软。
== home | Throw Pillow Set
pl | Zestaw poduszek dekoracyjnych | welurowych; bouclé; haftowanych | Dwie miękkie poduszki ze zdejmowanymi poszewkami do prania.
uk | Набір декоративних подушок | оксамитових; букле; вишитих | Дві м'які подушки зі знімними чохлами, які можна прати.
ru | Набор декоративных подушек | бархатных; букле; вышитых | Две мягкие подушки со съёмными чехлами, которые можно стирать.
zh-hans | 抱枕套装 | 丝绒; 圈圈绒; 刺绣 | 两只柔软抱枕，枕套可拆洗。
== home | Doormat
pl | Wycieraczka | kokosowa; personalizowana; powitalna | Wytrzymała naturalna wycieraczka, która wita każdego gościa.
uk | Придверний килимок | кокосовий; іменний; вітальний | Зносостійкий натуральний килимок, що вітає кожного гостя.
ru | Придверный коврик | кокосовый; именной; приветственный | Износостойкий натуральный коврик, который встречает каждого гостя.
zh-hans | 门垫 | 椰棕; 定制; 欢迎 | 耐磨的天然门垫，迎接每一位客人。
== home | Weighted Blanket
pl | Kołdra obciążeniowa | chłodząca; pluszowa; bawełniana | Łagodny, równomierny nacisk, który pomaga wielu osobom się odprężyć i głębiej spać.
uk | Обважнена ковдра | охолоджувальна; плюшева; бавовняна | М'який рівномірний тиск, що допомагає багатьом розслабитися й спати глибше.
ru | Утяжелённое одеяло | охлаждающее; плюшевое; хлопковое | Мягкое равномерное давление, которое помогает многим расслабиться и спать глубже.
zh-hans | 重力毯 | 凉感; 毛绒; 纯棉 | 温和均匀的压感，帮助许多人放松、睡得更沉。
== home | Photo Album
pl | Album na zdjęcia | lniany; skórzany; scrapbook | Bezkwasowe strony, które na lata ochronią wydrukowane wspomnienia.
uk | Фотоальбом | лляний; шкіряний; для скрапбукінгу | Безкислотні сторінки збережуть надруковані спогади на роки.
ru | Фотоальбом | льняной; кожаный; для скрапбукинга | Бескислотные страницы сохранят напечатанные воспоминания на годы.
zh-hans | 相册 | 亚麻; 皮革; 手账 | 无酸内页，多年保存珍贵的照片回忆。
== home | Plant Stand
pl | Kwietnik | bambusowy; piętrowy; w stylu mid-century | Unosi rośliny bliżej światła i porządkuje słoneczny kąt.
uk | Підставка для квітів | бамбукова; багатоярусна; мідсенчурі | Піднімає кімнатні рослини ближче до світла й упорядковує сонячний куток.
ru | Подставка для цветов | бамбуковая; многоярусная; мидсенчури | Поднимает комнатные растения ближе к свету и наводит порядок в солнечном уголке.
zh-hans | 花架 | 竹制; 多层; 中古风 | 把室内植物托向阳光，让向阳角落井井有条。
== home | Candle Making Kit
pl | Zestaw do robienia świec | z woskiem sojowym; z woskiem pszczelim; dla początkujących | Wosk, knoty, zapachy i puszki do odlewania własnych świec.
uk | Набір для виготовлення свічок | із соєвим воском; із бджолиним воском; для початківців | Віск, ґноти, аромати й баночки, щоб відлити власні свічки.
ru | Набор для изготовления свечей | с соевым воском; с пчелиным воском; для начинающих | Воск, фитили, ароматы и баночки, чтобы отлить собственные свечи.
zh-hans | 蜡烛制作套装 | 大豆蜡; 蜂蜡; 入门 | 蜡、烛芯、香精和铁罐，亲手浇筑自己的蜡烛。
== home | Home Tool Kit
pl | Domowy zestaw narzędzi | podstawowy; kompaktowy; startowy | Młotek, śrubokręty, szczypce i więcej do codziennych napraw.
uk | Домашній набір інструментів | базовий; компактний; стартовий | Молоток, викрутки, плоскогубці та інше для щоденних дрібних ремонтів.
ru | Домашний набор инструментов | базовый; компактный; стартовый | Молоток, отвёртки, плоскогубцы и другое для повседневного мелкого ремонта.
zh-hans | 家用工具套装 | 基础; 紧凑; 入门 | 锤子、螺丝刀、钳子等，应付日常小修小补。
"""
