# ruff: noqa: RUF001 - words in other scripts are the point
"""Toys templates in pl, uk, ru and zh-hans (the format: gifts.demo_translations)."""

TEMPLATES = """
== toys | Building Brick Set
pl | Zestaw klocków | stacja kosmiczna; miejska straż pożarna; zamek | Setki klocków i minifigurek z instrukcją krok po kroku.
uk | Набір конструктора | космічна станція; міська пожежна частина; замок | Сотні деталей і мініфігурок з покроковою інструкцією.
ru | Набор конструктора | космическая станция; городская пожарная часть; замок | Сотни деталей и минифигурок с пошаговой инструкцией.
zh-hans | 积木套装 | 太空站; 城市消防局; 城堡 | 数百块积木和人仔，附分步说明书。
== toys | Brick Model Kit
pl | Model z klocków | bukiet kwiatów; panorama miasta; klasyczny samochód | Szczegółowy model na wystawę dla dorosłych fanów klocków na cały weekend.
uk | Модель із конструктора | ботанічний букет; архітектурна панорама; вінтажне авто | Детальна колекційна модель для дорослих фанатів конструктора на цілі вихідні.
ru | Модель из конструктора | ботанический букет; архитектурная панорама; винтажный автомобиль | Детальная коллекционная модель для взрослых поклонников конструктора на все выходные.
zh-hans | 积木模型套装 | 植物花束; 城市天际线; 复古汽车 | 细节丰富的摆件模型，供成年积木迷拼上一个周末。
== toys | Science Kit
pl | Zestaw naukowy | chemiczny; do hodowli kryształów; wulkan | Bezpieczne eksperymenty do samodzielnego wykonania z ilustrowanym przewodnikiem.
uk | Науковий набір | хімічний; для вирощування кристалів; вулкан | Безпечні досліди своїми руками з ілюстрованим посібником.
ru | Научный набор | химический; для выращивания кристаллов; вулкан | Безопасные опыты своими руками с иллюстрированным руководством.
zh-hans | 科学实验套装 | 化学; 水晶培养; 火山 | 安全有趣的动手实验，附图解指南。
== toys | Plush Toy
pl | Pluszak | miś; dinozaur; króliczek | Bardzo miękki przyjaciel do przytulania, sprawdzony pod kątem bezpieczeństwa maluchów.
uk | М'яка іграшка | ведмедик; динозавр; зайчик | Надм'який друг для обіймів, перевірений на безпечність для малюків.
ru | Мягкая игрушка | мишка; динозавр; зайчик | Очень мягкий друг для обнимашек, проверенный на безопасность для малышей.
zh-hans | 毛绒玩具 | 泰迪熊; 恐龙; 小兔 | 超柔软的抱抱伙伴，经过安全检测，适合小宝宝。
== toys | Wooden Train Set
pl | Drewniana kolejka | startowa; deluxe; ósemka | Bukowe tory, mosty i magnetyczne pociągi do niekończących się układów.
uk | Дерев'яна залізниця | стартова; розширена; вісімка | Букові колії, мости й магнітні потяги для безлічі маршрутів.
ru | Деревянная железная дорога | стартовая; расширенная; восьмёрка | Буковые рельсы, мосты и магнитные поезда для бесконечных маршрутов.
zh-hans | 木制火车套装 | 入门; 豪华; 八字轨道 | 榉木轨道、桥梁和磁力小火车，轨道拼法千变万化。
== toys | Remote Control Car
pl | Samochód zdalnie sterowany | terenowy; kaskaderski; wyścigowy | Szybkie auto na akumulator, które poradzi sobie z trawą, żwirem i rampami.
uk | Машинка на радіокеруванні | позашляхова; трюкова; гоночна | Швидка машинка з акумулятором, що долає траву, гравій і трампліни.
ru | Машинка на радиоуправлении | внедорожная; трюковая; гоночная | Быстрая машинка с аккумулятором, которая справляется с травой, гравием и трамплинами.
zh-hans | 遥控车 | 越野; 特技; 竞速 | 速度快、可充电，草地、碎石和坡道都能跑。
== toys | Marble Run
pl | Tor dla kulek | drewniany; świecący w ciemności; magnetyczny | Buduj kręte tory i patrz, jak kulki się ścigają.
uk | Кульковий трек | дерев'яний; що світиться в темряві; магнітний | Будуйте звивисті траси й дивіться, як кульки змагаються.
ru | Шариковый трек | деревянный; светящийся в темноте; магнитный | Стройте извилистые трассы и смотрите, как шарики соревнуются.
zh-hans | 弹珠轨道 | 木质; 夜光; 磁力 | 搭建弯弯曲曲的轨道，看弹珠飞驰比赛。
== toys | Telescope for Kids
pl | Teleskop dla dzieci | dla początkujących; stołowy; refraktor | Łatwo go wycelować w Księżyc i planety, ma szukacz i mapę nieba.
uk | Телескоп для дітей | для початківців; настільний; рефрактор | Легко навести на Місяць і планети, з шукачем і картою зоряного неба.
ru | Телескоп для детей | для начинающих; настольный; рефрактор | Легко навести на Луну и планеты, с искателем и картой звёздного неба.
zh-hans | 儿童望远镜 | 入门; 桌面; 折射式 | 轻松对准月亮和行星，附寻星镜和星图。
== toys | Craft Kit
pl | Zestaw kreatywny | bransoletki przyjaźni; do robienia slime; do robienia biżuterii | Wszystko, czego trzeba na popołudnie tworzenia i dzielenia się.
uk | Творчий набір | браслети дружби; для слаймів; для прикрас | Усе потрібне для дня творчості й обміну виробами.
ru | Творческий набор | браслеты дружбы; для слаймов; для украшений | Всё нужное для дня творчества и обмена поделками.
zh-hans | 手工套装 | 友谊手链; 史莱姆; 首饰制作 | 一下午动手制作、彼此分享所需的一切。
== toys | Dollhouse
pl | Domek dla lalek | drewniany; nowoczesny; wiktoriański | Trzy piętra umeblowanych pokoi do zabawy w wyobraźnię.
uk | Ляльковий будиночок | дерев'яний; сучасний; вікторіанський | Три поверхи мебльованих кімнат для ігор з уявою.
ru | Кукольный домик | деревянный; современный; викторианский | Три этажа меблированных комнат для игр с фантазией.
zh-hans | 娃娃屋 | 木质; 现代; 维多利亚风 | 三层带家具的房间，尽情发挥想象力。
== toys | Coding Robot
pl | Robot do nauki programowania | dla początkujących; programowalny; bez ekranu | Uczy sekwencji i pętli przez zabawne wyzwania z robotem.
uk | Робот для навчання програмування | для початківців; програмований; без екрана | Вчить послідовностей і циклів через ігрові завдання з роботом.
ru | Робот для обучения программированию | для начинающих; программируемый; без экрана | Учит последовательностям и циклам через игровые задания с роботом.
zh-hans | 编程机器人 | 入门; 可编程; 无屏幕 | 通过好玩的机器人挑战，学习顺序和循环。
== toys | Magnetic Tiles
pl | Klocki magnetyczne | 60 elementów; 100 elementów; świecące | Kolorowe płytki, które łączą się w wieże, rakiety i zamki.
uk | Магнітний конструктор | 60 деталей; 100 деталей; світний | Кольорові пластини, що з'єднуються у вежі, ракети й замки.
ru | Магнитный конструктор | 60 деталей; 100 деталей; светящийся | Цветные пластины, которые соединяются в башни, ракеты и замки.
zh-hans | 磁力片 | 60 片; 100 片; 发光 | 五彩磁力片一拼就合，搭出高塔、火箭和城堡。
== toys | Floor Puzzle
pl | Puzzle podłogowe | dinozaury; mapa świata; kosmos | Duże, solidne elementy, które małe rączki złożą na podłodze.
uk | Підлоговий пазл | динозаври; карта світу; космос | Великі міцні деталі, які маленькі ручки складуть на підлозі.
ru | Напольный пазл | динозавры; карта мира; космос | Большие прочные детали, которые маленькие ручки соберут на полу.
zh-hans | 地板拼图 | 恐龙; 世界地图; 太空 | 大块结实的拼图，小手也能在地板上拼好。
== toys | Play Kitchen
pl | Kuchnia do zabawy | drewniana; kompaktowa; deluxe | Kuchnia na niby z klikającymi pokrętłami, zlewem, garnkami i patelniami.
uk | Ігрова кухня | дерев'яна; компактна; розширена | Іграшкова кухня з клацаючими ручками, мийкою, каструлями й сковорідками.
ru | Игровая кухня | деревянная; компактная; расширенная | Игрушечная кухня со щёлкающими ручками, мойкой, кастрюлями и сковородками.
zh-hans | 儿童厨房玩具 | 木质; 紧凑; 豪华 | 过家家厨房，旋钮咔嗒作响，还有水槽和锅碗瓢盆。
== toys | Action Figure Set
pl | Zestaw figurek akcji | superbohaterowie; odkrywca kosmosu; strażnik dinozaurów | Ruchome figurki z akcesoriami do wielkich przygód.
uk | Набір фігурок | супергерої; дослідник космосу; охоронець динозаврів | Рухомі фігурки з аксесуарами для великих пригод.
ru | Набор фигурок | супергерои; исследователь космоса; хранитель динозавров | Подвижные фигурки с аксессуарами для больших приключений.
zh-hans | 可动人偶套装 | 超级英雄; 太空探险家; 恐龙守护者 | 关节可动的人偶和配件，开启大冒险。
== toys | Board Game for Kids
pl | Gra planszowa dla dzieci | memory; wyścig do zamku; zwierzęce bingo | Szybkie, kolorowe gry, które uczą czekania na swoją kolej i liczenia.
uk | Настільна гра для дітей | мемо; перегони до замку; бінго з тваринами | Швидкі яскраві ігри, що вчать чекати своєї черги й рахувати.
ru | Настольная игра для детей | мемори; гонка к замку; бинго с животными | Быстрые яркие игры, которые учат дожидаться своей очереди и считать.
zh-hans | 儿童桌游 | 记忆配对; 城堡竞速; 动物宾果 | 节奏快、色彩鲜艳，学会轮流和数数。
"""
