# ruff: noqa: RUF001 - words in other scripts are the point
"""Books templates in pl, uk, ru and zh-hans (the format: gifts.demo_translations)."""

TEMPLATES = """
== books | Fantasy Trilogy Box Set
pl | Trylogia fantasy w pudełku | epicka; smocza; kolekcjonerska | Trzy opasłe powieści o wyprawach, magii i wojnach królestw.
uk | Фентезі-трилогія в коробці | епічна; драконяча; колекційна | Три грубезні романи про мандри, магію та війни королівств.
ru | Фэнтези-трилогия в коробке | эпическая; драконья; коллекционная | Три толстых романа о странствиях, магии и войнах королевств.
zh-hans | 奇幻三部曲套装 | 史诗; 巨龙; 典藏 | 三部厚重的长篇小说，讲述冒险、魔法和王国之战。
== books | Sci-Fi Anthology
pl | Antologia science fiction | klasyczna; space opera; cyberpunk | Nagradzane opowiadania o odległych światach i niedalekiej przyszłości.
uk | Антологія наукової фантастики | класична; космічна опера; кіберпанк | Відзначені нагородами оповідання про далекі світи й близьке майбутнє.
ru | Антология научной фантастики | классическая; космическая опера; киберпанк | Отмеченные наградами рассказы о далёких мирах и близком будущем.
zh-hans | 科幻小说选集 | 经典; 太空歌剧; 赛博朋克 | 屡获殊荣的短篇小说，讲述遥远的世界和不远的未来。
== books | World History Atlas
pl | Atlas historii świata | ilustrowany; w twardej oprawie; kieszonkowy | Mapy i osie czasu śledzące imperia, szlaki handlowe i rewolucje na przestrzeni wieków.
uk | Атлас світової історії | ілюстрований; у твердій обкладинці; кишеньковий | Карти й хронології, що простежують імперії, торговельні шляхи та революції крізь століття.
ru | Атлас мировой истории | иллюстрированный; в твёрдой обложке; карманный | Карты и хронологии, которые прослеживают империи, торговые пути и революции сквозь века.
zh-hans | 世界历史地图集 | 插图版; 精装; 袖珍 | 地图与年表串起历代帝国、贸易路线和革命。
== books | Cookbook
pl | Książka kucharska | kuchnia włoska; roślinna; na co dzień; wypieki | Sprawdzone przepisy z jasnymi krokami i zdjęciem każdej potrawy.
uk | Кулінарна книга | італійська кухня; рослинна; на щодень; випічка | Перевірені рецепти з чіткими кроками й фото кожної страви.
ru | Кулинарная книга | итальянская кухня; растительная; на каждый день; выпечка | Проверенные рецепты с понятными шагами и фото каждого блюда.
zh-hans | 食谱 | 意大利菜; 植物基; 家常快手; 烘焙 | 经过实测的食谱，步骤清晰，每道菜都配有照片。
== books | Mystery Novel Collection
pl | Zbiór kryminałów | w stylu cozy; skandynawskich; ze złotej ery kryminału | Cztery wciągające kryminały z bystrymi detektywami i zaskakującymi zakończeniami.
uk | Збірка детективів | затишний детектив; скандинавський нуар; золота доба | Чотири захопливі детективи з кмітливими сищиками та несподіваними фіналами.
ru | Сборник детективов | уютный детектив; скандинавский нуар; золотой век | Четыре захватывающих детектива с проницательными сыщиками и неожиданными развязками.
zh-hans | 推理小说合集 | 温馨; 北欧黑色; 黄金时代 | 四部扣人心弦的推理小说，侦探机智，结局反转。
== books | Poetry Collection
pl | Tomik poezji | współczesnej; romantycznej; haiku | Cienka, pięknie oprawiona antologia wierszy do czytania na głos.
uk | Збірка поезії | сучасна; романтична; хайку | Тоненька, гарно оправлена антологія віршів для читання вголос.
ru | Сборник стихов | современные; романтические; хайку | Тонкая, красиво переплетённая антология стихов для чтения вслух.
zh-hans | 诗集 | 现代; 浪漫; 俳句 | 一本装帧精美的薄诗集，适合朗读。
== books | Picture Book
pl | Książeczka obrazkowa | na dobranoc; o zwierzętach; o dinozaurach | Ciepło ilustrowana historia do wspólnego czytania przed snem.
uk | Книжка з картинками | на ніч; про тварин; про динозаврів | Тепло ілюстрована історія, щоб читати разом перед сном.
ru | Книжка с картинками | на ночь; о животных; о динозаврах | Тепло иллюстрированная история, чтобы читать вместе перед сном.
zh-hans | 绘本 | 睡前; 动物; 恐龙 | 插画温馨的故事，适合睡前一起阅读。
== books | Graphic Novel
pl | Powieść graficzna | superbohaterska; fantasy; historyczna | Pełnokolorowa powieść graficzna o filmowej kresce i wciągającej fabule.
uk | Графічний роман | супергеройський; фентезі; історичний | Повнокольоровий графічний роман із кінематографічною графікою та захопливим сюжетом.
ru | Графический роман | супергеройский; фэнтези; исторический | Полноцветный графический роман с кинематографичной графикой и захватывающим сюжетом.
zh-hans | 图像小说 | 超级英雄; 奇幻; 历史 | 全彩图像小说，画面富有电影感，故事引人入胜。
== books | Astronomy Guide
pl | Przewodnik astronomiczny | do obserwacji nieba; z własnego ogrodu; ilustrowany | Mapy nieba i wskazówki, jak znaleźć planety, mgławice i galaktyki z własnego podwórka.
uk | Астрономічний путівник | для спостережень неба; із власного подвір'я; ілюстрований | Карти зоряного неба й поради, як знайти планети, туманності та галактики просто з подвір'я.
ru | Астрономический путеводитель | для наблюдений неба; со своего двора; иллюстрированный | Карты звёздного неба и советы, как найти планеты, туманности и галактики прямо со двора.
zh-hans | 天文指南 | 观星; 后院; 插图版 | 星图与观测技巧，在自家后院就能找到行星、星云和星系。
== books | Travel Guide
pl | Przewodnik turystyczny | Japonia; Włochy; parki narodowe | Plany zwiedzania, mapy i lokalne wskazówki do zaplanowania niezapomnianej podróży.
uk | Туристичний путівник | Японія; Італія; національні парки | Маршрути, карти й місцеві поради, щоб спланувати незабутню подорож.
ru | Туристический путеводитель | Япония; Италия; национальные парки | Маршруты, карты и местные советы, чтобы спланировать незабываемую поездку.
zh-hans | 旅行指南 | 日本; 意大利; 国家公园 | 行程、地图和当地贴士，助你规划一次难忘的旅行。
== books | Reading Light
pl | Lampka do czytania | z klipsem; akumulatorowa; bez użycia rąk | Ciepłe, ściemnialne światło LED do nocnego czytania bez budzenia innych.
uk | Лампа для читання | на кліпсі; акумуляторна; без рук | Тепле світлодіодне світло з регулюванням яскравості, щоб читати вночі й нікого не будити.
ru | Лампа для чтения | на клипсе; аккумуляторная; без рук | Тёплый светодиодный свет с регулировкой яркости, чтобы читать ночью и никого не будить.
zh-hans | 阅读灯 | 夹式; 充电; 免手持 | 暖光 LED 可调亮度，深夜阅读不打扰他人。
== books | Science Encyclopedia
pl | Encyklopedia nauki | dla dzieci; wizualna; kieszonkowa | Setki zdjęć i schematów, które wyjaśniają, jak działa świat.
uk | Наукова енциклопедія | дитяча; візуальна; кишенькова | Сотні фото й схем, що пояснюють, як влаштований світ.
ru | Научная энциклопедия | детская; визуальная; карманная | Сотни фотографий и схем, которые объясняют, как устроен мир.
zh-hans | 科学百科全书 | 儿童; 图解; 袖珍 | 数百张照片和图解，讲清世界如何运转。
== books | Romance Novel Bundle
pl | Zestaw romansów | historycznych; współczesnych; z epoki regencji | Trzy pokrzepiające historie miłosne na przytulne weekendy.
uk | Добірка любовних романів | історичні; сучасні; епоха Регентства | Три теплі історії кохання для затишних вихідних.
ru | Подборка любовных романов | исторические; современные; эпоха Регентства | Три тёплые истории любви для уютных выходных.
zh-hans | 爱情小说合集 | 历史; 当代; 摄政时期 | 三个温暖人心的爱情故事，陪你度过惬意周末。
== books | Chess Strategy Book
pl | Książka o strategii szachowej | dla początkujących; końcówki; debiuty | Partie z komentarzem i zadania, które ruch po ruchu szlifują taktykę.
uk | Книга про шахову стратегію | для початківців; ендшпіль; дебюти | Прокоментовані партії та задачі, що хід за ходом відточують тактику.
ru | Книга о шахматной стратегии | для начинающих; эндшпиль; дебюты | Прокомментированные партии и задачи, которые ход за ходом оттачивают тактику.
zh-hans | 国际象棋策略书 | 入门; 残局; 开局 | 带注释的对局和习题，一步步磨练战术。
"""
