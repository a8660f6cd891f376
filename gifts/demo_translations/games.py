# ruff: noqa: RUF001 - words in other scripts are the point
"""Games templates in pl, uk, ru and zh-hans (the format: gifts.demo_translations)."""

TEMPLATES = """
== games | Strategy Board Game
pl | Strategiczna gra planszowa | imperium handlowe; kolonia kosmiczna; średniowieczny zamek | Buduj, handluj i przechytrz znajomych w głębokiej grze trwającej około godziny.
uk | Стратегічна настільна гра | торгова імперія; космічна колонія; середньовічний замок | Будуйте, торгуйте й перехитріть друзів у глибокій грі приблизно на годину.
ru | Стратегическая настольная игра | торговая империя; космическая колония; средневековый замок | Стройте, торгуйте и перехитрите друзей в глубокой игре примерно на час.
zh-hans | 策略桌游 | 贸易帝国; 太空殖民地; 中世纪城堡 | 建造、交易、智胜好友，一局约一小时，耐玩有深度。
== games | Party Card Game
pl | Imprezowa gra karciana | słowna; rysunkowa; quiz | Szybkie rundy i mnóstwo śmiechu dla grup od czterech do dwunastu osób.
uk | Карткова гра для вечірок | словесна; з малюванням; вікторина | Швидкі раунди й багато сміху для компаній від чотирьох до дванадцяти людей.
ru | Карточная игра для вечеринок | словесная; с рисованием; викторина | Быстрые раунды и много смеха для компаний от четырёх до двенадцати человек.
zh-hans | 派对卡牌游戏 | 猜词; 你画我猜; 知识问答 | 节奏快、笑料多，适合四到十二人一起玩。
== games | Chess Set
pl | Zestaw szachowy | orzechowy; magnetyczny podróżny; turniejowy | Obciążone figury i składana szachownica do partii towarzyskich i poważnych.
uk | Шаховий набір | горіховий; магнітний дорожній; турнірний | Обважнені фігури й розкладна дошка для дружніх і серйозних партій.
ru | Шахматный набор | ореховый; магнитный дорожный; турнирный | Утяжелённые фигуры и складная доска для дружеских и серьёзных партий.
zh-hans | 国际象棋 | 胡桃木; 磁性旅行; 比赛 | 加重棋子配折叠棋盘，休闲对弈或认真比赛都合适。
== games | Jigsaw Puzzle
pl | Puzzle | krajobraz, 1000 elementów; botaniczne, 500 elementów; panorama miasta | Grube, ciasno pasujące elementy i plakat z gotowym obrazem.
uk | Пазл | пейзаж, 1000 елементів; ботанічний, 500 елементів; панорама міста | Товсті, щільно припасовані деталі й постер із готовим зображенням.
ru | Пазл | пейзаж, 1000 элементов; ботанический, 500 элементов; панорама города | Толстые, плотно подогнанные детали и постер с готовой картинкой.
zh-hans | 拼图 | 1000 片风景; 500 片植物; 城市全景 | 拼块厚实、咬合紧密，附完整图案海报。
== games | Game Controller
pl | Kontroler do gier | bezprzewodowy; pro; retro | Responsywny kontroler z długą pracą na baterii i programowalnymi przyciskami.
uk | Ігровий контролер | бездротовий; професійний; ретро | Чутливий контролер із тривалою роботою від батареї та кнопками, які можна перепризначити.
ru | Игровой контроллер | беспроводной; профессиональный; ретро | Отзывчивый контроллер с долгой работой от батареи и переназначаемыми кнопками.
zh-hans | 游戏手柄 | 无线; 专业; 复古 | 响应灵敏，续航持久，按键可自定义映射。
== games | Cooperative Board Game
pl | Kooperacyjna gra planszowa | wyprawa do lochów; ratunek z wyspy; nawiedzony dwór | Gracze łączą siły przeciwko samej grze w pełnej napięcia wspólnej przygodzie.
uk | Кооперативна настільна гра | підземелля; порятунок з острова; маєток із привидами | Гравці об'єднуються проти самої гри в напруженій спільній пригоді.
ru | Кооперативная настольная игра | подземелья; спасение с острова; особняк с привидениями | Игроки объединяются против самой игры в напряжённом совместном приключении.
zh-hans | 合作桌游 | 地牢探险; 荒岛救援; 鬼屋庄园 | 玩家联手对抗游戏本身，展开一场紧张的合作冒险。
== games | Dice Set
pl | Zestaw kości | metalowych; żywicznych; z kamieni szlachetnych | Siedmioelementowy zestaw kości wielościennych do kampanii RPG.
uk | Набір кубиків | металевих; зі смоли; з напівкоштовного каміння | Набір із семи багатогранних кубиків для рольових кампаній.
ru | Набор кубиков | металлических; из смолы; из полудрагоценных камней | Набор из семи многогранных кубиков для ролевых кампаний.
zh-hans | 骰子套装 | 金属; 树脂; 宝石 | 七颗多面骰一套，适合角色扮演跑团。
== games | Family Board Game
pl | Rodzinna gra planszowa | klasyczna; na farmie; poszukiwanie skarbów | Proste zasady i szybkie tury, by wszyscy mogli grać razem bez względu na wiek.
uk | Сімейна настільна гра | класична; на фермі; пошук скарбів | Прості правила й швидкі ходи, щоб грати разом могли всі віки.
ru | Семейная настольная игра | классическая; на ферме; поиск сокровищ | Простые правила и быстрые ходы, чтобы играть вместе могли все возрасты.
zh-hans | 家庭桌游 | 经典; 农场; 寻宝 | 规则简单、回合快，全家老少都能一起玩。
== games | Brain Teaser Puzzle
pl | Łamigłówka | drewniana; metalowa; 3D | Podchwytliwa łamigłówka do rozkładania, która zajmie ręce i umysł.
uk | Головоломка | дерев'яна; металева; 3D | Хитра розбірна головоломка, що займе і руки, і розум.
ru | Головоломка | деревянная; металлическая; 3D | Хитрая разборная головоломка, которая займёт и руки, и ум.
zh-hans | 益智解谜玩具 | 木质; 金属; 3D | 巧妙的拆解谜题，让双手和大脑都忙起来。
== games | Retro Game Console
pl | Konsola retro | przenośna; mini; arcade | Dziesiątki wbudowanych klasycznych gier: wystarczy podłączyć i grać.
uk | Ретро-консоль | портативна; міні; аркадна | Десятки вбудованих класичних ігор: під'єднайте й грайте.
ru | Ретро-консоль | портативная; мини; аркадная | Десятки встроенных классических игр: подключите и играйте.
zh-hans | 复古游戏机 | 掌上; 迷你; 街机 | 内置数十款经典游戏，插上电就能玩。
== games | Poker Set
pl | Zestaw do pokera | z żetonami glinianymi; podróżny; deluxe | Żetony o wadze kasynowej, dwie talie i przyciski dealera w solidnej walizce.
uk | Покерний набір | з глиняними фішками; дорожній; розкішний | Фішки казино-ваги, дві колоди та кнопки дилера в міцному кейсі.
ru | Покерный набор | с глиняными фишками; дорожный; роскошный | Фишки казино-веса, две колоды и кнопки дилера в прочном кейсе.
zh-hans | 扑克套装 | 黏土筹码; 旅行; 豪华 | 赌场级重量筹码、两副扑克和庄家按钮，装在结实的箱子里。
== games | Escape Room Game
pl | Gra escape room | kryminalna; science fiction; piracka | Łam szyfry i rozwiązuj zagadki w domu, ścigając się z czasem.
uk | Гра-квест | детективна; фантастична; піратська | Зламуйте шифри й розгадуйте загадки вдома на швидкість.
ru | Игра-квест | детективная; фантастическая; пиратская | Взламывайте шифры и разгадывайте загадки дома на время.
zh-hans | 密室逃脱游戏 | 悬疑; 科幻; 海盗 | 在家与时间赛跑，破解密码、解开谜题。
"""
