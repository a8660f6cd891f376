# ruff: noqa: RUF001 - words in other scripts are the point
"""Sports templates in pl, uk, ru and zh-hans (the format: gifts.demo_translations)."""

TEMPLATES = """
== sports | Yoga Mat
pl | Mata do jogi | korkowa; antypoślizgowa; podróżna | Przyczepna, amortyzująca mata do jogi, pilatesu i rozciągania.
uk | Килимок для йоги | корковий; неслизький; дорожній | Неслизький м'який килимок для йоги, пілатесу й розтяжки.
ru | Коврик для йоги | пробковый; нескользящий; дорожный | Нескользящий мягкий коврик для йоги, пилатеса и растяжки.
zh-hans | 瑜伽垫 | 软木; 防滑; 旅行 | 抓地缓冲，适合瑜伽、普拉提和拉伸。
== sports | Running Belt
pl | Pas biegowy | odblaskowy; z bidonami; smukły | Mieści telefon, klucze i żele i nie podskakuje na długich biegach.
uk | Біговий пояс | світловідбивний; з фляжками; тонкий | Тримає телефон, ключі й гелі і не підстрибує на довгих пробіжках.
ru | Беговой пояс | светоотражающий; с фляжками; тонкий | Держит телефон, ключи и гели и не прыгает на длинных пробежках.
zh-hans | 跑步腰包 | 反光; 水壶; 纤薄 | 手机、钥匙和能量胶都能装，长跑也不晃动。
== sports | Bike Light Set
pl | Zestaw lampek rowerowych | ładowany przez USB; o wysokiej widoczności; inteligentny | Jasne światła przednie i tylne do bezpiecznej jazdy po zmroku.
uk | Набір велофар | із зарядкою через USB; підвищеної помітності; розумний | Яскраві передня й задня фари для безпечних поїздок у темряві.
ru | Набор велофонарей | с зарядкой по USB; повышенной заметности; умный | Яркие передний и задний фонари для безопасных поездок в темноте.
zh-hans | 自行车灯套装 | USB 充电; 高亮警示; 智能 | 明亮的前灯和尾灯，天黑骑行更安全。
== sports | Football
pl | Piłka nożna | meczowa; treningowa; halowa | Wytrzymała piłka o stabilnym locie do meczów i treningów.
uk | Футбольний м'яч | матчевий; тренувальний; для залу | Міцний м'яч зі стабільним польотом для матчів і тренувань.
ru | Футбольный мяч | матчевый; тренировочный; для зала | Прочный мяч со стабильным полётом для матчей и тренировок.
zh-hans | 足球 | 比赛; 训练; 室内 | 耐用的足球，飞行稳定，比赛训练都适用。
== sports | Tennis Racket
pl | Rakieta tenisowa | juniorska; grafitowa; dla początkujących | Lekka, wybaczająca błędy rakieta z wygodnym uchwytem.
uk | Тенісна ракетка | юніорська; графітова; для початківців | Легка ракетка, що прощає помилки, зі зручним грипом.
ru | Теннисная ракетка | юниорская; графитовая; для начинающих | Лёгкая, прощающая ошибки ракетка с удобной рукояткой.
zh-hans | 网球拍 | 青少年; 石墨; 入门 | 轻巧、容错性高，握感舒适。
== sports | Swim Goggles
pl | Okulary pływackie | przeciwmgielne; lustrzane; na wody otwarte | Szczelne, niezaparowujące okulary na basen i wody otwarte.
uk | Окуляри для плавання | з антифогом; дзеркальні; для відкритої води | Окуляри, що не протікають і не запотівають, для басейну та відкритої води.
ru | Очки для плавания | с антифогом; зеркальные; для открытой воды | Очки, которые не протекают и не запотевают, для бассейна и открытой воды.
zh-hans | 泳镜 | 防雾; 镀膜; 公开水域 | 不进水、防起雾，泳池和公开水域都适用。
== sports | Resistance Band Set
pl | Zestaw gum oporowych | materiałowych; zamkniętych; rurkowych | Pięć poziomów oporu do treningu siłowego w domu i w podróży.
uk | Набір резинок для фітнесу | тканинних; кільцевих; трубчастих | П'ять рівнів опору для силових тренувань удома й у поїздках.
ru | Набор резинок для фитнеса | тканевых; кольцевых; трубчатых | Пять уровней сопротивления для силовых тренировок дома и в поездках.
zh-hans | 弹力带套装 | 布艺; 环形; 管式 | 五档阻力，在家或出门都能做力量训练。
== sports | Adjustable Dumbbells
pl | Hantle z regulacją | kompaktowe; z szybką zmianą; z pokrętłem | Jedna oszczędzająca miejsce para zamiast całego stojaka obciążeń.
uk | Регульовані гантелі | компактні; зі швидкою зміною ваги; з диском-перемикачем | Одна компактна пара замість цілої стійки ваг.
ru | Регулируемые гантели | компактные; с быстрой сменой веса; с диском-переключателем | Одна компактная пара вместо целой стойки весов.
zh-hans | 可调节哑铃 | 紧凑; 快速换重; 旋钮 | 一对省空间的哑铃，顶一整架器械。
== sports | Cycling Jersey
pl | Koszulka kolarska | przewiewna; termiczna; retro | Dopasowana koszulka z tylnymi kieszeniami, która odprowadza pot na długich trasach.
uk | Велоджерсі | повітропроникна; термо; ретро | Облягаюча джерсі з задніми кишенями, що відводить піт у довгих поїздках.
ru | Веломайка | дышащая; термо; ретро | Облегающая веломайка с задними карманами, которая отводит пот в долгих поездках.
zh-hans | 骑行服 | 透气; 保暖; 复古 | 修身骑行服，背后有口袋，长途骑行排汗速干。
== sports | Golf Balls
pl | Piłki golfowe | miękkie; na dystans; personalizowane | Tuzin piłek turniejowej jakości dla większego dystansu i kontroli.
uk | М'ячі для гольфу | м'які; на дальність; іменні | Дюжина м'ячів турнірної якості для більшої дальності й контролю.
ru | Мячи для гольфа | мягкие; на дальность; именные | Дюжина мячей турнирного качества для большей дальности и контроля.
zh-hans | 高尔夫球 | 软感; 远距离; 定制 | 一打巡回赛级高尔夫球，打得更远、控制更好。
== sports | Basketball
pl | Piłka do koszykówki | do gry na zewnątrz; halowa; w oficjalnym rozmiarze | Przyczepna piłka kompozytowa, która odbija się równo na każdym boisku.
uk | Баскетбольний м'яч | для вулиці; для залу; офіційного розміру | Композитний м'яч із надійним хватом, що рівно відскакує на будь-якому майданчику.
ru | Баскетбольный мяч | для улицы; для зала; официального размера | Композитный мяч с надёжным хватом, который ровно отскакивает на любой площадке.
zh-hans | 篮球 | 室外; 室内; 标准尺寸 | 手感防滑的合成革篮球，在任何球场都弹跳稳定。
== sports | Foam Roller
pl | Wałek do masażu | z wypustkami; wibrujący; o wysokiej gęstości | Łagodzi bolące mięśnie i przyspiesza regenerację po treningu.
uk | Масажний ролик | рельєфний; вібраційний; високої щільності | Полегшує біль у м'язах і прискорює відновлення після тренувань.
ru | Массажный ролик | рельефный; вибрационный; высокой плотности | Облегчает боль в мышцах и ускоряет восстановление после тренировок.
zh-hans | 泡沫轴 | 凸点; 振动; 高密度 | 缓解肌肉酸痛，加快训练后恢复。
== sports | Jump Rope
pl | Skakanka | szybka; obciążona; inteligentna | Płynnie obracająca się skakanka do krótkich, intensywnych treningów cardio.
uk | Скакалка | швидкісна; обважнена; розумна | Скакалка з плавним обертанням для коротких інтенсивних кардіотренувань.
ru | Скакалка | скоростная; утяжелённая; умная | Скакалка с плавным вращением для коротких интенсивных кардиотренировок.
zh-hans | 跳绳 | 竞速; 负重; 智能 | 转动顺滑，适合短时高强度的有氧训练。
== sports | Tennis Ball Pack
pl | Zestaw piłek tenisowych | ciśnieniowych; turniejowych; treningowych | Powtarzalne, dobrze widoczne piłki do meczów i ćwiczeń.
uk | Набір тенісних м'ячів | під тиском; турнірних; тренувальних | Стабільні, добре помітні м'ячі для матчів і вправ.
ru | Набор теннисных мячей | под давлением; турнирных; тренировочных | Стабильные, хорошо заметные мячи для матчей и упражнений.
zh-hans | 网球组合装 | 有压; 锦标赛; 训练 | 性能稳定、醒目易见，比赛和练习都适用。
== sports | Swim Towel
pl | Ręcznik pływacki | z mikrofibry; ponczo do przebierania; szybkoschnący | Chłonny, zajmuje mało miejsca i szybko schnie po basenie lub plaży.
uk | Рушник для плавання | з мікрофібри; пончо для переодягання; швидковисихний | Вбирає вологу, мало важить і швидко сохне після басейну чи пляжу.
ru | Полотенце для плавания | из микрофибры; пончо для переодевания; быстросохнущее | Впитывает влагу, мало весит и быстро сохнет после бассейна или пляжа.
zh-hans | 游泳毛巾 | 超细纤维; 换衣斗篷; 速干 | 吸水、好收纳，游泳或海滩后很快就干。
"""
