# ruff: noqa: RUF001 - words in other scripts are the point
"""Art supplies templates in pl, uk, ru and zh-hans (the format: gifts.demo_translations)."""

TEMPLATES = """
== art_supplies | Watercolor Set
pl | Zestaw akwareli | dla początkujących; profesjonalny; podróżny | Mocno napigmentowane kostki i pędzel ze zbiorniczkiem do malowania pejzaży, kwiatów i szybkich szkiców.
uk | Набір акварелі | для початківців; професійний; дорожній | Насичені пігментом кювети й пензель із резервуаром для пейзажів, квітів і швидких етюдів.
ru | Набор акварели | для начинающих; профессиональный; дорожный | Насыщенные пигментом кюветы и кисть с резервуаром для пейзажей, цветов и быстрых этюдов.
zh-hans | 水彩颜料套装 | 入门; 专业; 便携 | 高显色固体水彩配储水笔，适合画风景、花卉和速写小品。
== art_supplies | Sketchbook
pl | Szkicownik | w twardej oprawie; na spirali; z barwionym papierem | Gruby papier, który przyjmie ołówek, tusz i lekkie laserunki, nie falując.
uk | Скетчбук | у твердій обкладинці; на пружині; з тонованим папером | Щільний папір для олівця, туші й легких розмивок, який не жолобиться.
ru | Скетчбук | в твёрдой обложке; на пружине; с тонированной бумагой | Плотная бумага для карандаша, туши и лёгких заливок, которая не коробится.
zh-hans | 速写本 | 精装; 线圈装; 有色纸 | 厚实的纸张，铅笔、墨水和淡彩都能驾驭，不起皱。
== art_supplies | Graphite Pencil Set
pl | Zestaw ołówków grafitowych | artystyczny; do rysunku; do szkicowania | Dwanaście twardości od twardych po miękkie, do tego wiszer i gumka do ćwiczenia cieniowania.
uk | Набір графітних олівців | художній; для малювання; для скетчингу | Дванадцять ступенів твердості від твердих до м'яких, розтушовка й гумка для відпрацювання тіней.
ru | Набор графитных карандашей | художественный; для рисования; для скетчинга | Двенадцать степеней твёрдости от твёрдых до мягких, растушёвка и ластик для отработки теней.
zh-hans | 素描铅笔套装 | 艺术家; 绘画; 速写 | 从硬到软十二种硬度，另附纸笔和橡皮，适合练习明暗。
== art_supplies | Acrylic Paint Kit
pl | Zestaw farb akrylowych | startowy; pracowniany; neonowy | Szybkoschnące akryle w tubkach z pędzlami i płytami malarskimi, by od razu zacząć malować.
uk | Набір акрилових фарб | стартовий; студійний; неоновий | Швидковисихні акрилові фарби в тюбиках із пензлями й полотнами на картоні, щоб одразу почати малювати.
ru | Набор акриловых красок | стартовый; студийный; неоновый | Быстросохнущие акриловые краски в тюбиках с кистями и холстами на картоне, чтобы сразу начать рисовать.
zh-hans | 丙烯颜料套装 | 入门; 工作室; 荧光 | 速干丙烯管装颜料，配画笔和画布板，拿到就能开画。
== art_supplies | Tabletop Easel
pl | Sztaluga stołowa | bukowa; regulowana; przenośna | Solidna sztaluga, która trzyma płótno pod wygodnym kątem na każdym stole.
uk | Настільний мольберт | буковий; регульований; портативний | Міцний мольберт, що тримає полотно під зручним кутом на будь-якому столі.
ru | Настольный мольберт | буковый; регулируемый; портативный | Прочный мольберт, который держит холст под удобным углом на любом столе.
zh-hans | 桌面画架 | 榉木; 可调节; 便携 | 结实的画架，在任何桌面上都能以舒适角度支撑画布。
== art_supplies | Calligraphy Pen Set
pl | Zestaw piór do kaligrafii | dla początkujących; pędzelkowy; ze stalówkami do maczania | Pióra, tusz i karty ćwiczeń do nauki eleganckiego liternictwa krok po kroku.
uk | Набір пер для каліграфії | для початківців; з пензлями; з перами для вмочування | Пера, чорнило й прописи, щоб крок за кроком опанувати красиве письмо.
ru | Набор перьев для каллиграфии | для начинающих; с кистями; с перьями для макания | Перья, чернила и прописи, чтобы шаг за шагом освоить красивое письмо.
zh-hans | 书法笔套装 | 入门; 软头; 蘸水 | 笔、墨水和练习纸，一步步学写优雅的字体。
== art_supplies | Knitting Kit
pl | Zestaw do robienia na drutach | gruby szal; czapka; koc z merynosa | Miękka włóczka, bambusowe druty i prosty wzór na pierwszy projekt.
uk | Набір для в'язання | об'ємний шарф; шапка; плед із мериносу | М'яка пряжа, бамбукові спиці та простий опис для першого в'язаного виробу.
ru | Набор для вязания | объёмный шарф; шапка; плед из мериноса | Мягкая пряжа, бамбуковые спицы и простая схема для первого вязаного изделия.
zh-hans | 编织套装 | 粗针围巾; 毛线帽; 美利奴毛毯 | 柔软毛线、竹制棒针和简单图解，完成第一件编织作品。
== art_supplies | Embroidery Kit
pl | Zestaw do haftu | botaniczny; dla początkujących; nowoczesny | Wzór nadrukowany na tkaninie w tamborku, mulina i igły na relaksujący wieczór.
uk | Набір для вишивки | ботанічний; для початківців; сучасний | Надрукована схема на тканині з п'яльцями, муліне й голки для спокійного вечора.
ru | Набор для вышивки | ботанический; для начинающих; современный | Напечатанная схема на ткани с пяльцами, мулине и иглы для спокойного вечера.
zh-hans | 刺绣套装 | 植物; 入门; 现代 | 印好图案的绣绷、绣线和针，度过一个放松的刺绣之夜。
== art_supplies | Oil Pastel Set
pl | Zestaw pasteli olejnych | 48 kolorów; artystyczny; szkolny | Kremowe, łatwe do blendowania pastele o mocnych barwach na papier, drewno i płótno.
uk | Набір олійної пастелі | 48 кольорів; художній; учнівський | Кремова пастель, що легко розтушовується і дає яскравий колір на папері, дереві чи полотні.
ru | Набор масляной пастели | 48 цветов; художественный; ученический | Кремовая пастель, которая легко растушёвывается и даёт яркий цвет на бумаге, дереве или холсте.
zh-hans | 油画棒套装 | 48 色; 艺术家; 学生 | 细腻易混色的油画棒，在纸、木板或画布上都色彩浓烈。
== art_supplies | Pottery Wheel
pl | Koło garncarskie | mini; stołowe; elektryczne | Ciche koło z osłoną przed chlapaniem do toczenia misek i kubków w domu.
uk | Гончарний круг | міні; настільний; електричний | Тихий круг із бризковиком, щоб формувати миски й чашки вдома.
ru | Гончарный круг | мини; настольный; электрический | Тихий круг с брызговиком, чтобы формовать миски и чашки дома.
zh-hans | 拉坯机 | 迷你; 桌面; 电动 | 安静的拉坯机配防溅盆，在家就能拉碗做杯。
== art_supplies | Alcohol Marker Set
pl | Zestaw markerów alkoholowych | dwustronnych; do ilustracji; do mangi | Markery bez smug, ze ściętą i cienką końcówką, do ilustracji i komiksów.
uk | Набір спиртових маркерів | двосторонніх; для ілюстрацій; для манги | Маркери без смуг зі скошеним і тонким наконечником для ілюстрацій і коміксів.
ru | Набор спиртовых маркеров | двусторонних; для иллюстраций; для манги | Маркеры без полос со скошенным и тонким наконечником для иллюстраций и комиксов.
zh-hans | 酒精马克笔套装 | 双头; 插画; 漫画 | 不留笔痕，斜头和细头兼备，适合插画和漫画。
== art_supplies | Linocut Printing Kit
pl | Zestaw do linorytu | dla początkujących; deluxe; kompaktowy | Dłuta, płytki linoleum, farba i wałek do tworzenia odbitek ręcznych.
uk | Набір для ліногравюри | для початківців; розширений; компактний | Різці, лінолеумні пластини, фарба й валик, щоб друкувати відбитки вручну.
ru | Набор для линогравюры | для начинающих; расширенный; компактный | Резцы, линолеумные пластины, краска и валик, чтобы печатать оттиски вручную.
zh-hans | 版画套装 | 入门; 豪华; 紧凑 | 刻刀、麻胶版、油墨和滚筒，亲手拓印版画。
"""
