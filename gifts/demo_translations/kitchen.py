# ruff: noqa: RUF001 - words in other scripts are the point
"""Kitchen templates in pl, uk, ru and zh-hans (the format: gifts.demo_translations)."""

TEMPLATES = """
== kitchen | Coffee Grinder
pl | Młynek do kawy | żarnowy; ręczny; elektryczny | Równo mieli ziarna, od drobnego przemiału do espresso po gruby do french pressu.
uk | Кавомолка | жорнова; ручна; електрична | Рівномірно меле зерна — від тонкого помелу для еспресо до грубого для френч-преса.
ru | Кофемолка | жерновая; ручная; электрическая | Равномерно мелет зёрна — от тонкого помола для эспрессо до крупного для френч-пресса.
zh-hans | 咖啡磨豆机 | 锥刀; 手摇; 电动 | 研磨均匀，从意式细粉到法压粗粉都能胜任。
== kitchen | Pour-Over Coffee Set
pl | Zestaw do kawy przelewowej | ceramiczny; szklany; podróżny | Drip, filtry i karafka do czystej, wyrazistej filiżanki kawy.
uk | Набір для пуровера | керамічний; скляний; дорожній | Пуровер, фільтри й карафа для чистої, яскравої чашки кави.
ru | Набор для пуровера | керамический; стеклянный; дорожный | Пуровер, фильтры и графин для чистой, яркой чашки кофе.
zh-hans | 手冲咖啡套装 | 陶瓷; 玻璃; 旅行 | 滤杯、滤纸和分享壶，冲出干净明亮的一杯咖啡。
== kitchen | Chef's Knife
pl | Nóż szefa kuchni | damasceński; japoński; z niemieckiej stali | Wyważone, ostre jak brzytwa ostrze do codziennego siekania i krojenia.
uk | Кухарський ніж | дамаський; японський; з німецької сталі | Збалансоване, гостре як бритва лезо для щоденного нарізання.
ru | Поварской нож | дамасский; японский; из немецкой стали | Сбалансированное, острое как бритва лезвие для ежедневной нарезки.
zh-hans | 主厨刀 | 大马士革钢; 日式; 德国钢 | 平衡锋利的刀刃，日常切剁都顺手。
== kitchen | Cast Iron Skillet
pl | Żeliwna patelnia | wstępnie wypalona; 25 cm; emaliowana | Idealnie obsmaży steki, upiecze chlebek kukurydziany i posłuży pokoleniom.
uk | Чавунна сковорода | попередньо прожарена; 25 см; емальована | Обсмажить стейки, спече кукурудзяний хліб і прослужить поколінням.
ru | Чугунная сковорода | предварительно прокалённая; 25 см; эмалированная | Обжарит стейки, испечёт кукурузный хлеб и прослужит поколениям.
zh-hans | 铸铁煎锅 | 预开锅; 10 英寸; 珐琅 | 煎牛排、烤玉米面包，经久耐用，可传几代人。
== kitchen | Stand Mixer
pl | Mikser planetarny | kompaktowy; profesjonalny; z odchylaną głowicą | Mocny mikser z hakiem do ciasta, trzepaczką i mieszadłem do poważnego pieczenia.
uk | Планетарний міксер | компактний; професійний; з відкидною головою | Потужний міксер із гаком для тіста, віничком і лопаткою для справжньої випічки.
ru | Планетарный миксер | компактный; профессиональный; с откидной головой | Мощный миксер с крюком для теста, венчиком и лопаткой для серьёзной выпечки.
zh-hans | 厨师机 | 紧凑; 专业; 抬头式 | 动力强劲，配揉面钩、打蛋器和搅拌桨，烘焙更得心应手。
== kitchen | Tea Kettle
pl | Czajnik | z wąską wylewką; elektryczny; z gwizdkiem | Szybko zagotowuje wodę i pozwala precyzyjnie nalewać.
uk | Чайник | з вузьким носиком; електричний; зі свистком | Швидко закип'ятить воду й дає змогу точно наливати.
ru | Чайник | с узким носиком; электрический; со свистком | Быстро кипятит воду и позволяет точно наливать.
zh-hans | 烧水壶 | 细口; 电热; 鸣笛 | 烧水快，出水精准可控。
== kitchen | Baking Set
pl | Zestaw form do pieczenia | nieprzywierający; silikonowy; do chleba | Formy i przybory do ciast, bochenków i ciasteczek.
uk | Набір форм для випічки | з антипригарним покриттям; силіконовий; для хліба | Форми й приладдя для тортів, хліба та печива.
ru | Набор форм для выпечки | с антипригарным покрытием; силиконовый; для хлеба | Формы и принадлежности для тортов, хлеба и печенья.
zh-hans | 烘焙工具套装 | 不粘; 硅胶; 面包 | 烤盘和工具，做蛋糕、面包和饼干都用得上。
== kitchen | Cutting Board
pl | Deska do krojenia | akacjowa; sztorcowa; z drewna oliwnego | Gruba drewniana deska, łagodna dla noży i ładna na blacie.
uk | Обробна дошка | з акації; торцева; з оливкового дерева | Товста дерев'яна дошка, що береже ножі й гарно виглядає на стільниці.
ru | Разделочная доска | из акации; торцевая; из оливкового дерева | Толстая деревянная доска, которая бережёт ножи и красиво смотрится на столешнице.
zh-hans | 砧板 | 相思木; 端面拼接; 橄榄木 | 厚实木砧板，不伤刀刃，摆在台面上也好看。
== kitchen | Espresso Machine
pl | Ekspres do espresso | kompaktowy; dźwigniowy; z dwoma bojlerami | Parzy esencjonalne espresso i spienia aksamitne mleko do latte.
uk | Еспресо-машина | компактна; важільна; з двома бойлерами | Готує насичене еспресо й збиває шовковисте молоко для лате.
ru | Эспрессо-машина | компактная; рычажная; с двумя бойлерами | Готовит насыщенный эспрессо и взбивает шелковистое молоко для латте.
zh-hans | 意式咖啡机 | 小巧; 手动拉杆; 双锅炉 | 萃取浓郁的意式浓缩，打出丝滑奶泡做拿铁。
== kitchen | Wine Decanter
pl | Karafka do wina | kryształowa; napowietrzająca; łabędź | Pozwala czerwonemu winu oddychać i pięknie zdobi stół.
uk | Декантер для вина | кришталевий; з аерацією; лебідь | Дає червоному вину подихати й прикрашає стіл.
ru | Декантер для вина | хрустальный; с аэрацией; лебедь | Даёт красному вину подышать и украшает стол.
zh-hans | 醒酒器 | 水晶; 快速醒酒; 天鹅 | 让红酒充分醒开，也是餐桌上的漂亮摆件。
== kitchen | Pasta Maker
pl | Maszynka do makaronu | ręczna; elektryczna; do ravioli | Wałkuje i kroi świeże płaty ciasta, fettuccine i spaghetti.
uk | Машинка для пасти | ручна; електрична; для равіолі | Розкачує й нарізає свіжі пласти тіста, фетучіні та спагеті.
ru | Машинка для пасты | ручная; электрическая; для равиоли | Раскатывает и нарезает свежие пласты теста, феттучине и спагетти.
zh-hans | 意面机 | 手摇; 电动; 意式饺子 | 压制并切出新鲜面皮、宽面和细面。
== kitchen | Dutch Oven
pl | Garnek do duszenia | emaliowany; żeliwny; 5,7 l | Ciężki garnek z pokrywą do gulaszy, duszenia i chleba z chrupiącą skórką.
uk | Жаровня | емальована; чавунна; 5,7 л | Важка каструля з кришкою для рагу, тушкування й хліба з хрусткою скоринкою.
ru | Жаровня | эмалированная; чугунная; 5,7 л | Тяжёлая кастрюля с крышкой для рагу, тушения и хлеба с хрустящей корочкой.
zh-hans | 炖锅 | 珐琅; 铸铁; 6 夸脱 | 厚重带盖的锅，适合炖菜、焖煮和烤脆皮面包。
== kitchen | Matcha Whisk Set
pl | Zestaw do matchy | bambusowy; ceremonialny; kompletny | Bambusowa miotełka, łyżeczka i czarka do ubijania spienionej herbaty matcha.
uk | Набір для матчі | бамбуковий; церемоніальний; повний | Бамбуковий віничок, ложечка й чаша, щоб збити пінну матчу.
ru | Набор для матчи | бамбуковый; церемониальный; полный | Бамбуковый венчик, ложечка и чаша, чтобы взбить пенную матчу.
zh-hans | 抹茶刷套装 | 竹制; 茶道; 全套 | 竹制茶筅、茶勺和茶碗，打出绵密的抹茶。
== kitchen | Spice Rack
pl | Stojak na przyprawy | obrotowy; magnetyczny; bambusowy | Słoiczki są widoczne i pod ręką podczas gotowania.
uk | Полиця для спецій | обертова; магнітна; бамбукова | Баночки завжди на виду й під рукою під час готування.
ru | Полка для специй | вращающаяся; магнитная; бамбуковая | Баночки всегда на виду и под рукой во время готовки.
zh-hans | 调料架 | 旋转; 磁吸; 竹制 | 做饭时调料瓶一目了然、触手可及。
== kitchen | Cocktail Shaker Set
pl | Zestaw do koktajli | miedziany; barmański; ze stali nierdzewnej | Shaker, miarka, sitko i muddler do przyrządzania drinków w domu.
uk | Набір для коктейлів | мідний; барменський; з нержавіючої сталі | Шейкер, джигер, стрейнер і мадлер, щоб змішувати напої вдома.
ru | Набор для коктейлей | медный; барменский; из нержавеющей стали | Шейкер, джиггер, стрейнер и мадлер, чтобы смешивать напитки дома.
zh-hans | 调酒器套装 | 紫铜; 调酒师; 不锈钢 | 摇酒壶、量酒器、滤冰器和捣棒，在家就能调酒。
== kitchen | Apron
pl | Fartuch | lniany; dżinsowy; płócienny | Solidny fartuch z głębokimi kieszeniami i regulowanymi paskami.
uk | Фартух | лляний; джинсовий; полотняний | Міцний фартух із глибокими кишенями та регульованими ремінцями.
ru | Фартук | льняной; джинсовый; холщовый | Прочный фартук с глубокими карманами и регулируемыми ремешками.
zh-hans | 围裙 | 亚麻; 牛仔布; 帆布 | 结实的围裙，口袋深，肩带可调。
"""
