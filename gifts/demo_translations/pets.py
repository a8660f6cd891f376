# ruff: noqa: RUF001 - words in other scripts are the point
"""Pets templates in pl, uk, ru and zh-hans (the format: gifts.demo_translations)."""

TEMPLATES = """
== pets | Dog Bed
pl | Legowisko dla psa | ortopedyczne; uspokajające okrągłe; podwyższone | Wygodne legowisko ze zdejmowanym pokrowcem do prania na długie, przytulne drzemki.
uk | Лежак для собаки | ортопедичний; заспокійливий пончик; піднятий | Зручний лежак зі знімним чохлом, який можна прати, для довгого затишного сну.
ru | Лежанка для собаки | ортопедическая; успокаивающий пончик; приподнятая | Удобная лежанка со съёмным стирающимся чехлом для долгого уютного сна.
zh-hans | 狗窝 | 护脊; 安抚甜甜圈; 离地 | 支撑性好，外套可拆洗，让狗狗舒舒服服睡个长觉。
== pets | Cat Tree
pl | Drapak dla kota | nowoczesny; kompaktowy; sizalowy | Półki, słupki do drapania i kryjówka dla kotów, które lubią się wspinać.
uk | Ігровий комплекс для кота | сучасний; компактний; з сизалем | Полички, кігтеточки й схованка для котів, що люблять лазити.
ru | Игровой комплекс для кошки | современный; компактный; с сизалем | Полочки, когтеточки и домик для кошек, которые любят лазать.
zh-hans | 猫爬架 | 现代; 紧凑; 剑麻 | 平台、猫抓柱和小窝，满足爱攀爬的猫咪。
== pets | Interactive Dog Toy
pl | Interaktywna zabawka dla psa | łamigłówka; na przysmaki; piszcząca | Zajmuje energiczne psy i utrzymuje ich umysł w formie.
uk | Інтерактивна іграшка для собаки | головоломка; для ласощів; пискавка | Розважає активних собак і тримає їхній розум у тонусі.
ru | Интерактивная игрушка для собаки | головоломка; для лакомств; пищалка | Развлекает активных собак и держит их ум в тонусе.
zh-hans | 互动狗玩具 | 益智; 漏食; 发声 | 让精力旺盛的狗狗玩得开心，头脑更灵活。
== pets | Cat Toy Set
pl | Zestaw zabawek dla kota | wędka z piórkami; z kocimiętką; tunel | Mieszanka wędek i zabawek, które budzą w kocie instynkt łowcy.
uk | Набір іграшок для кота | вудка з пір'ям; з котячою м'ятою; тунель | Дражнилки й іграшки, що пробуджують у кота мисливський інстинкт.
ru | Набор игрушек для кошки | удочка с перьями; с кошачьей мятой; туннель | Дразнилки и игрушки, которые пробуждают в кошке охотничий инстинкт.
zh-hans | 猫玩具套装 | 羽毛; 猫薄荷; 隧道 | 逗猫棒和各种玩具，唤醒猫咪的狩猎本能。
== pets | Dog Leash
pl | Smycz dla psa | skórzana; bez użycia rąk; odblaskowa | Mocna, wygodna smycz na codzienne spacery.
uk | Повідець для собаки | шкіряний; для вільних рук; світловідбивний | Міцний, зручний повідець для щоденних прогулянок.
ru | Поводок для собаки | кожаный; для свободных рук; светоотражающий | Прочный, удобный поводок для ежедневных прогулок.
zh-hans | 狗牵引绳 | 皮革; 免手持; 反光 | 结实舒适，日常遛狗必备。
== pets | Pet Camera
pl | Kamera dla zwierząt | z podajnikiem przysmaków; Wi-Fi; z noktowizją | Zajrzyj do pupila, porozmawiaj z nim i podrzuć mu przysmak z telefonu.
uk | Камера для тварин | з видачею ласощів; Wi-Fi; з нічним баченням | Наглядайте за улюбленцем, говоріть із ним і кидайте ласощі з телефона.
ru | Камера для питомцев | с выдачей лакомств; Wi-Fi; с ночным видением | Присматривайте за питомцем, говорите с ним и бросайте лакомства с телефона.
zh-hans | 宠物摄像头 | 抛零食; Wi-Fi; 夜视 | 用手机随时查看宠物、和它说话、给它投零食。
== pets | Pet Grooming Kit
pl | Zestaw do pielęgnacji zwierząt | bezprzewodowy; przeciw linieniu; startowy | Szczotki i maszynka, dzięki którym sierść jest zadbana, a linienie mniejsze.
uk | Набір для грумінгу тварин | бездротовий; проти линяння; стартовий | Щітки й машинка, що тримають шерсть охайною й зменшують линяння.
ru | Набор для груминга питомцев | беспроводной; против линьки; стартовый | Щётки и машинка, которые держат шерсть опрятной и уменьшают линьку.
zh-hans | 宠物美容套装 | 无线; 去浮毛; 入门 | 梳子和电推剪，让毛发整洁、减少掉毛。
== pets | Dog Treat Sampler
pl | Zestaw przysmaków dla psa | dla smakoszy; bez zbóż; treningowych | Przysmaki z małych partii z prostych, naturalnych składników.
uk | Набір ласощів для собак | делікатесних; беззернових; для дресирування | Ласощі малих партій із простих натуральних інгредієнтів.
ru | Набор лакомств для собак | деликатесных; беззерновых; для дрессировки | Лакомства малых партий из простых натуральных ингредиентов.
zh-hans | 狗零食组合 | 美味; 无谷; 训练 | 小批量制作，原料简单天然。
== pets | Cat Water Fountain
pl | Poidełko-fontanna dla kota | ceramiczne; stalowe; ciche | Filtrowana, płynąca woda, która zachęca koty do picia.
uk | Фонтан-поїлка для кота | керамічний; сталевий; тихий | Фільтрована проточна вода, що заохочує котів пити більше.
ru | Фонтан-поилка для кошки | керамический; стальной; тихий | Фильтрованная проточная вода, которая побуждает кошек пить больше.
zh-hans | 猫咪饮水机 | 陶瓷; 不锈钢; 静音 | 过滤循环的流动水，让猫咪多喝水。
== pets | Pet Portrait
pl | Portret zwierzaka | akwarela na zamówienie; rysunek liniowy; pop-art | Ręcznie rysowany portret ukochanego pupila na podstawie Twojego zdjęcia.
uk | Портрет улюбленця | акварель на замовлення; лайн-арт; поп-арт | Намальований вручну портрет улюбленця за вашим фото.
ru | Портрет питомца | акварель на заказ; лайн-арт; поп-арт | Нарисованный вручную портрет любимца по вашему фото.
zh-hans | 宠物肖像画 | 定制水彩; 线稿; 波普 | 根据你的照片手绘心爱宠物的肖像。
== pets | Dog Raincoat
pl | Płaszczyk przeciwdeszczowy dla psa | odblaskowy; z kapturem; składany | Chroni psa przed deszczem i sprawia, że jest widoczny na deszczowych spacerach.
uk | Дощовик для собаки | світловідбивний; з капюшоном; компактний | Береже собаку сухою і помітною на дощових прогулянках.
ru | Дождевик для собаки | светоотражающий; с капюшоном; компактный | Сохраняет собаку сухой и заметной на дождливых прогулках.
zh-hans | 狗狗雨衣 | 反光; 带帽; 可收纳 | 雨天遛狗时保持干爽，也更醒目。
== pets | Aquarium Starter Kit
pl | Zestaw akwarystyczny dla początkujących | nano; 40 l; dla bojownika | Zbiornik, filtr i oświetlenie LED do założenia pierwszego akwarium.
uk | Стартовий набір акваріума | нано; 40 л; для півника | Резервуар, фільтр і світлодіодне освітлення, щоб облаштувати перший акваріум.
ru | Стартовый набор аквариума | нано; 40 л; для петушка | Резервуар, фильтр и светодиодное освещение, чтобы обустроить первый аквариум.
zh-hans | 入门鱼缸套装 | 迷你; 10 加仑; 斗鱼 | 鱼缸、过滤器和 LED 灯，轻松打造第一个水族箱。
== pets | Pet Travel Carrier
pl | Transporter dla zwierząt | dopuszczony do samolotu; plecak; miękki | Przewiewny transporter na wizyty u weterynarza i podróże.
uk | Переноска для тварин | для перельотів; рюкзак; м'яка | Переноска з вентиляцією для візитів до ветеринара й подорожей.
ru | Переноска для питомцев | для перелётов; рюкзак; мягкая | Переноска с вентиляцией для визитов к ветеринару и поездок.
zh-hans | 宠物外出包 | 航空认证; 双肩; 软体 | 透气的外出包，看兽医、出门旅行都方便。
"""
