# ruff: noqa: RUF001 - words in other scripts are the point
"""Electronics templates in pl, uk, ru and zh-hans (the format: gifts.demo_translations)."""

TEMPLATES = """
== electronics | Wireless Earbuds
pl | Słuchawki bezprzewodowe douszne | z redukcją szumów; sportowe; kompaktowe | W pełni bezprzewodowe słuchawki z kieszonkowym etui ładującym i wyraźnymi rozmowami.
uk | Бездротові навушники-вкладиші | із шумозаглушенням; спортивні; компактні | Повністю бездротові навушники з кишеньковим зарядним кейсом і чітким звуком під час дзвінків.
ru | Беспроводные наушники-вкладыши | с шумоподавлением; спортивные; компактные | Полностью беспроводные наушники с карманным зарядным кейсом и чётким звуком при звонках.
zh-hans | 无线耳机 | 降噪; 运动; 小巧 | 真无线耳机，充电盒可放进口袋，通话清晰。
== electronics | Bluetooth Speaker
pl | Głośnik Bluetooth | wodoodporny; przenośny; retro | Dźwięk wypełniający pokój i długa praca na baterii na imprezy, pikniki i plażę.
uk | Bluetooth-колонка | водонепроникна; портативна; ретро | Звук, що заповнює кімнату, і довга робота від батареї для вечірок, пікніків і пляжу.
ru | Bluetooth-колонка | водонепроницаемая; портативная; ретро | Звук, заполняющий комнату, и долгая работа от батареи для вечеринок, пикников и пляжа.
zh-hans | 蓝牙音箱 | 防水; 便携; 复古 | 声音充满整个房间，续航持久，适合派对、野餐和海滩。
== electronics | Smart Plug
pl | Inteligentne gniazdko | Wi-Fi; z pomiarem energii; zewnętrzne | Włączaj lampy i urządzenia z telefonu, według harmonogramu lub głosem.
uk | Розумна розетка | Wi-Fi; з обліком енергії; вулична | Вмикайте лампи й прилади з телефона, за розкладом або голосом.
ru | Умная розетка | Wi-Fi; с учётом энергии; уличная | Включайте лампы и приборы с телефона, по расписанию или голосом.
zh-hans | 智能插座 | Wi-Fi; 电量监测; 户外 | 用手机、定时或语音控制台灯和电器开关。
== electronics | Smart Speaker
pl | Inteligentny głośnik | kompaktowy; premium; kuchenny | Głośnik z asystentem głosowym, który gra muzykę i steruje inteligentnym oświetleniem.
uk | Розумна колонка | компактна; преміум; кухонна | Колонка з голосовим асистентом, яка грає музику й керує розумним освітленням.
ru | Умная колонка | компактная; премиум; кухонная | Колонка с голосовым ассистентом, которая играет музыку и управляет умным светом.
zh-hans | 智能音箱 | 小巧; 高端; 厨房 | 语音助手音箱，可播放音乐、控制智能灯光。
== electronics | E-Reader
pl | Czytnik e-booków | wodoodporny; kolorowy; bez odblasków | Ekran jak papier, tygodnie pracy na baterii i tysiące książek w torbie.
uk | Електронна книга | водонепроникна; кольорова; без відблисків | Екран як папір, тижні без підзарядки й тисячі книжок у сумці.
ru | Электронная книга | водонепроницаемая; цветная; без бликов | Экран как бумага, недели без подзарядки и тысячи книг в сумке.
zh-hans | 电子阅读器 | 防水; 彩屏; 防眩光 | 类纸屏幕，续航数周，包里装得下上千本书。
== electronics | Instant Camera
pl | Aparat natychmiastowy | mini; szeroki format; retro | Drukuje zdjęcia wielkości karty płatniczej kilka sekund po naciśnięciu spustu.
uk | Камера миттєвого друку | міні; широкий формат; ретро | Друкує фото розміром із банківську картку за кілька секунд після натискання кнопки.
ru | Камера моментальной печати | мини; широкий формат; ретро | Печатает фото размером с банковскую карту через несколько секунд после нажатия кнопки.
zh-hans | 拍立得相机 | 迷你; 宽幅; 复古 | 按下快门几秒后，就能打印出卡片大小的照片。
== electronics | Fitness Tracker
pl | Opaska fitness | smukła; z GPS; wodoodporna | Liczy kroki i monitoruje tętno, sen oraz treningi na lekkiej opasce.
uk | Фітнес-браслет | тонкий; з GPS; водонепроникний | Рахує кроки, стежить за пульсом, сном і тренуваннями на легкому браслеті.
ru | Фитнес-браслет | тонкий; с GPS; водонепроницаемый | Считает шаги, следит за пульсом, сном и тренировками на лёгком браслете.
zh-hans | 运动手环 | 纤薄; GPS; 防水 | 轻巧腕带，记录步数、心率、睡眠和运动。
== electronics | Power Bank
pl | Powerbank | smukły; solarny; z szybkim ładowaniem | Kilkukrotnie naładuje telefon, idealny na dni w podróży.
uk | Павербанк | тонкий; сонячний; зі швидкою зарядкою | Кілька разів заряджає телефон, ідеальний для днів у дорозі.
ru | Пауэрбанк | тонкий; солнечный; с быстрой зарядкой | Несколько раз заряжает телефон, идеален для дней в дороге.
zh-hans | 移动电源 | 纤薄; 太阳能; 快充 | 可为手机充满好几次，旅行必备。
== electronics | Mechanical Keyboard
pl | Klawiatura mechaniczna | kompaktowa; bezprzewodowa; RGB | Wyczuwalne przełączniki i solidna aluminiowa rama do pisania i grania.
uk | Механічна клавіатура | компактна; бездротова; RGB | Тактильні перемикачі й міцна алюмінієва рама для набору тексту та ігор.
ru | Механическая клавиатура | компактная; беспроводная; RGB | Тактильные переключатели и прочная алюминиевая рама для набора текста и игр.
zh-hans | 机械键盘 | 紧凑; 无线; RGB | 段落感轴体配坚固铝合金框架，打字游戏两相宜。
== electronics | Gaming Headset
pl | Zestaw słuchawkowy dla graczy | bezprzewodowy; przestrzenny; lekki | Wygodne nauszniki, wyraźny mikrofon na wysięgniku i dźwięk przestrzenny na długie sesje.
uk | Ігрова гарнітура | бездротова; об'ємний звук; легка | Зручні амбушури, чіткий мікрофон на штанзі й позиційний звук для довгих сесій.
ru | Игровая гарнитура | беспроводная; объёмный звук; лёгкая | Удобные амбушюры, чёткий микрофон на штанге и позиционный звук для долгих сессий.
zh-hans | 游戏耳机 | 无线; 环绕声; 轻量 | 舒适耳垫、清晰的麦克风和定位音效，长时间游戏也舒适。
== electronics | Action Camera
pl | Kamera sportowa | 4K; wodoodporna; mini | Wytrzymała kamera ze stabilizacją na rower, surfing i zjazdy na nartach.
uk | Екшн-камера | 4K; водонепроникна; міні | Міцна камера зі стабілізацією для велосипеда, серфінгу й лижних спусків.
ru | Экшн-камера | 4K; водонепроницаемая; мини | Прочная камера со стабилизацией для велосипеда, сёрфинга и горнолыжных спусков.
zh-hans | 运动相机 | 4K; 防水; 迷你 | 坚固耐用，带防抖，骑行、冲浪、滑雪都能拍。
== electronics | Camera Drone
pl | Dron z kamerą | mini; składany; dla początkujących | Stabilny, łatwy w sterowaniu dron, który nagrywa płynne ujęcia z powietrza.
uk | Дрон із камерою | міні; складаний; для початківців | Стабільний дрон, яким легко керувати, знімає плавне відео з повітря.
ru | Дрон с камерой | мини; складной; для начинающих | Стабильный дрон, которым легко управлять, снимает плавное видео с воздуха.
zh-hans | 航拍无人机 | 迷你; 折叠; 入门 | 飞行平稳、容易操控，拍出流畅的航拍视频。
== electronics | Smart Watch
pl | Smartwatch | fitness; klasyczny; wzmocniony | Powiadomienia, treningi z GPS i monitorowanie zdrowia na nadgarstku.
uk | Смарт-годинник | фітнес; класичний; захищений | Сповіщення, тренування з GPS і стеження за здоров'ям на зап'ясті.
ru | Умные часы | фитнес; классические; защищённые | Уведомления, тренировки с GPS и отслеживание здоровья на запястье.
zh-hans | 智能手表 | 运动; 经典; 三防 | 消息提醒、GPS 运动记录和健康监测，尽在腕间。
== electronics | Over-Ear Headphones
pl | Słuchawki nauszne | z redukcją szumów; studyjne; bezprzewodowe | Miękkie słuchawki wokółuszne, które odcinają od świata w dojazdach i podczas lotów.
uk | Повнорозмірні навушники | із шумозаглушенням; студійні; бездротові | М'які повнорозмірні навушники, що відгороджують від світу в дорозі й у польоті.
ru | Полноразмерные наушники | с шумоподавлением; студийные; беспроводные | Мягкие полноразмерные наушники, которые отгораживают от мира в дороге и в полёте.
zh-hans | 头戴式耳机 | 降噪; 录音室; 无线 | 柔软包耳式设计，通勤和飞行时隔绝外界喧嚣。
== electronics | Smart Light Bulb Kit
pl | Zestaw inteligentnych żarówek | kolorowych; ciepłobiałych; startowy | Ściemnialne żarówki, które zmieniają kolor i działają według harmonogramu z aplikacji.
uk | Набір розумних лампочок | кольорових; теплого білого світла; стартовий | Лампочки з регулюванням яскравості, що змінюють колір і працюють за розкладом із застосунку.
ru | Набор умных лампочек | цветных; тёплого белого света; стартовый | Лампочки с регулировкой яркости, которые меняют цвет и работают по расписанию из приложения.
zh-hans | 智能灯泡套装 | 彩光; 暖白光; 入门 | 可调光灯泡，通过应用变换颜色、定时开关。
"""
