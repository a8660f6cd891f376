# ruff: noqa: RUF001 - words in other scripts are the point
"""Outdoors templates in pl, uk, ru and zh-hans (the format: gifts.demo_translations)."""

TEMPLATES = """
== outdoors | Headlamp
pl | Latarka czołowa | do biegania w terenie; akumulatorowa; ultralekka | Jasny, stabilny snop światła na poranne biegi i nocne wędrówki.
uk | Налобний ліхтарик | для трейлранінгу; акумуляторний; надлегкий | Яскравий промінь, що не підстрибує, для ранніх пробіжок і нічних походів.
ru | Налобный фонарик | для трейлраннинга; аккумуляторный; сверхлёгкий | Яркий луч, который не прыгает, для ранних пробежек и ночных походов.
zh-hans | 头灯 | 越野跑; 充电; 超轻 | 光束明亮稳定不晃动，适合清晨跑步和夜间徒步。
== outdoors | Camping Hammock
pl | Hamak turystyczny | ultralekki; dwuosobowy; ocieplany | Rozwiesza się między dwoma drzewami w kilka minut, pasy w zestawie.
uk | Туристичний гамак | надлегкий; двомісний; утеплений | Натягується між двома деревами за кілька хвилин, ремені в комплекті.
ru | Туристический гамак | сверхлёгкий; двухместный; утеплённый | Натягивается между двумя деревьями за несколько минут, стропы в комплекте.
zh-hans | 露营吊床 | 超轻; 双人; 保暖 | 几分钟就能挂在两棵树之间，附绑带。
== outdoors | Insulated Water Bottle
pl | Butelka termiczna | 1 l; na szlak; z szeroką szyjką | Na szlaku utrzymuje napoje zimne przez cały dzień, a gorące przez wiele godzin.
uk | Термопляшка | 1 л; для походів; із широким горлом | На стежці тримає напої холодними цілий день, а гарячими — багато годин.
ru | Термобутылка | 1 л; для походов; с широким горлом | В походе держит напитки холодными целый день, а горячими — много часов.
zh-hans | 保温水壶 | 1 升; 徒步; 宽口 | 户外途中冷饮保冷一整天，热饮保温数小时。
== outdoors | Camp Stove
pl | Kuchenka turystyczna | trekkingowa; dwupalnikowa; kompaktowa | Szybko gotuje wodę i utrzymuje płomień pod garnkiem nawet na wietrze.
uk | Туристичний пальник | для походів; двоконфорковий; компактний | Швидко кип'ятить воду й тушкує похідні страви навіть на вітрі.
ru | Туристическая горелка | для походов; двухконфорочная; компактная | Быстро кипятит воду и томит походные блюда даже на ветру.
zh-hans | 露营炉 | 徒步; 双灶; 紧凑 | 烧水快，刮风也能小火慢煮野营餐。
== outdoors | Trekking Poles
pl | Kije trekkingowe | karbonowe; składane; aluminiowe | Lekkie, regulowane kije, które oszczędzają kolana na stromych zejściach.
uk | Трекінгові палиці | карбонові; складані; алюмінієві | Легкі регульовані палиці, що бережуть коліна на крутих спусках.
ru | Треккинговые палки | карбоновые; складные; алюминиевые | Лёгкие регулируемые палки, которые берегут колени на крутых спусках.
zh-hans | 登山杖 | 碳纤维; 折叠; 铝合金 | 轻便可调，陡坡下山时保护膝盖。
== outdoors | Daypack
pl | Plecak jednodniowy | 20 l; z bukłakiem; składany | Wygodny plecak z pokrowcem przeciwdeszczowym na jednodniowe wycieczki i wypady do miasta.
uk | Рюкзак на день | 20 л; з гідратором; складаний | Зручний рюкзак із чохлом від дощу для одноденних походів і міських прогулянок.
ru | Рюкзак на день | 20 л; с питьевой системой; складной | Удобный рюкзак с чехлом от дождя для однодневных походов и городских поездок.
zh-hans | 日用背包 | 20 升; 水袋; 可收纳 | 背负舒适，附防雨罩，适合一日徒步和城市出行。
== outdoors | Fishing Rod Combo
pl | Wędka z kołowrotkiem | spinningowa; muchowa; teleskopowa | Dopasowana wędka i kołowrotek z nawiniętą żyłką, gotowe nad jezioro.
uk | Вудка з котушкою | спінінгова; нахлистова; телескопічна | Підібрані вудилище й котушка з намотаною волосінню, готові до озера.
ru | Удочка с катушкой | спиннинговая; нахлыстовая; телескопическая | Подобранные удилище и катушка с намотанной леской, готовые к озеру.
zh-hans | 钓竿套装 | 纺车; 飞钓; 伸缩 | 鱼竿与渔轮搭配好并已绕线，拿到就能去湖边。
== outdoors | Tackle Box
pl | Pudełko wędkarskie | startowe; wodoodporne; muchowe | Uporządkowane przegródki z przynętami, haczykami i ciężarkami na dzień łowienia.
uk | Рибальська коробка | стартова; водонепроникна; для нахлисту | Упорядковані лотки з приманками, гачками й грузилами на день риболовлі.
ru | Рыболовная коробка | стартовая; водонепроницаемая; для нахлыста | Упорядоченные лотки с приманками, крючками и грузилами на день рыбалки.
zh-hans | 钓鱼工具箱 | 入门; 防水; 飞钓 | 分格收纳鱼饵、鱼钩和铅坠，够钓一整天。
== outdoors | Sleeping Bag
pl | Śpiwór | trzysezonowy; puchowy; typu mumia | Ciepła, kompresowalna izolacja na chłodne noce pod gwiazdami.
uk | Спальний мішок | трисезонний; пуховий; кокон | Теплий наповнювач, що легко стискається, для прохолодних ночей під зорями.
ru | Спальный мешок | трёхсезонный; пуховый; кокон | Тёплый, легко сжимаемый наполнитель для прохладных ночей под звёздами.
zh-hans | 睡袋 | 三季; 羽绒; 木乃伊式 | 保暖可压缩，陪你度过星空下的凉夜。
== outdoors | Camping Lantern
pl | Lampa kempingowa | LED; solarna; składana | Oświetla namiot lub stół piknikowy przez cały wieczór.
uk | Кемпінговий ліхтар | світлодіодний; сонячний; складаний | Освітлює намет або стіл для пікніка цілий вечір.
ru | Кемпинговый фонарь | светодиодный; солнечный; складной | Освещает палатку или стол для пикника весь вечер.
zh-hans | 露营灯 | LED; 太阳能; 折叠 | 整晚照亮帐篷或野餐桌。
== outdoors | Binoculars
pl | Lornetka | do obserwacji ptaków; kompaktowa; 10x42 | Ostra, wodoodporna optyka do obserwacji przyrody i widoków.
uk | Бінокль | для спостереження за птахами; компактний; 10x42 | Чітка водонепроникна оптика для спостереження за природою та краєвидами.
ru | Бинокль | для наблюдения за птицами; компактный; 10x42 | Чёткая водонепроницаемая оптика для наблюдения за природой и пейзажами.
zh-hans | 望远镜 | 观鸟; 小巧; 10x42 | 清晰防水的光学镜头，观赏野生动物和风景。
== outdoors | Multi-Tool
pl | Multitool | kieszonkowy; kempingowy; wzmocniony | Szczypce, ostrza, śrubokręty i otwieracz do butelek w jednym narzędziu.
uk | Мультитул | кишеньковий; кемпінговий; посилений | Плоскогубці, леза, викрутки й відкривачка для пляшок в одному інструменті.
ru | Мультитул | карманный; кемпинговый; усиленный | Плоскогубцы, лезвия, отвёртки и открывалка для бутылок в одном инструменте.
zh-hans | 多功能工具钳 | 口袋; 露营; 重型 | 钳子、刀片、螺丝刀和开瓶器集于一身。
== outdoors | Tent
pl | Namiot | dwuosobowy trekkingowy; rodzinny kopułowy; ultralekki | Odporny na pogodę namiot, który szybko rozbijesz po długim dniu.
uk | Намет | двомісний туристичний; сімейний купольний; надлегкий | Намет, що витримує негоду й швидко ставиться після довгого дня.
ru | Палатка | двухместная туристическая; семейная купольная; сверхлёгкая | Палатка, которая выдерживает непогоду и быстро ставится после долгого дня.
zh-hans | 帐篷 | 双人徒步; 家庭圆顶; 超轻 | 防风防雨，忙碌一天后也能快速搭好。
== outdoors | Chalk Bag
pl | Woreczek na magnezję | boulderowy; haftowany; wielokrotnego napełniania | Utrzymuje suche dłonie na ściance, ma uchwyt na szczoteczkę i kieszonkę na zamek.
uk | Мішечок для магнезії | для боулдерингу; вишитий; багаторазовий | Тримає руки сухими на скеледромі, має петлю для щітки й кишеню на блискавці.
ru | Мешочек для магнезии | для боулдеринга; вышитый; многоразовый | Держит руки сухими на скалодроме, есть петля для щётки и карман на молнии.
zh-hans | 镁粉袋 | 抱石; 刺绣; 可补充 | 攀岩时保持双手干爽，带刷子挂环和拉链口袋。
== outdoors | Portable Fire Pit
pl | Przenośne palenisko | bezdymne; stołowe; składane | Palenisko z niewielką ilością dymu na wieczory w ogrodzie i na kempingu.
uk | Портативне вогнище | бездимне; настільне; складане | Вогнище з мінімумом диму для вечорів на подвір'ї та в кемпінгу.
ru | Портативный очаг | бездымный; настольный; складной | Очаг с минимумом дыма для вечеров во дворе и в кемпинге.
zh-hans | 便携火盆 | 无烟; 桌面; 折叠 | 少烟火盆，适合后院和营地的夜晚。
"""
