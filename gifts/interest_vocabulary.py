# ruff: noqa: RUF001 - words in other scripts are the point
"""The catalog's interest tags and categories in every shipped language (pure data: no Django).

One line per tag: the tag | more English words for it | pl | uk | ru | zh-hans. In each language
the first word is the label people read, the others are common forms and near synonyms that
match it too (Polish, Ukrainian and Russian inflect: "ogrodnictwo", "ogrodnictwem"). Words not
listed still match by their stem (gifts.interests). Seeded into `InterestTerm` rows, which
staff edit in the admin.
"""

from __future__ import annotations

LANGUAGES = ("en", "pl", "uk", "ru", "zh-hans")

_TABLE = """
accessories | | akcesoria, dodatki | аксесуари | аксессуары | 配饰
acrylic | acrylics | akryl, farby akrylowe | акрил | акрил | 丙烯
animals | animal | zwierzęta, zwierzę | тварини | животные | 动物
aquarium | fish tank | akwarium, akwarystyka | акваріум | аквариум | 水族
aromatherapy | | aromaterapia | ароматерапія | ароматерапия | 香薰
art | arts | sztuka | мистецтво | искусство | 艺术
astronomy | stargazing, space | astronomia, gwiazdy | астрономія | астрономия | 天文
baking | bake, baker | pieczenie, wypieki | випічка, випікання | выпечка | 烘焙
basketball | | koszykówka | баскетбол | баскетбол | 篮球
beach | | plaża | пляж | пляж | 海滩
beard-care | beard | broda, pielęgnacja brody | догляд за бородою, борода | уход за бородой, борода | 胡须护理
beauty | | uroda, kosmetyki | краса, косметика | красота, косметика | 美妆
beer | craft beer | piwo | пиво | пиво | 啤酒
birds | birdwatching, bird | ptaki | птахи | птицы | 观鸟, 鸟
board-games | boardgames | gry planszowe, planszówki | настільні ігри | настольные игры | 桌游
books | book | książki, książka | книги, книга | книги, книга | 书籍, 书
boxing | | boks | бокс | бокс | 拳击
building | construction | budowanie, konstruowanie | конструювання | конструирование | 搭建
calligraphy | lettering | kaligrafia | каліграфія | каллиграфия | 书法
camping | | biwakowanie, kemping | кемпінг | кемпинг, поход | 露营
candles | candle | świece, świeczki | свічки | свечи | 蜡烛
cards | card games | karty | карти | карты | 纸牌
cats | cat | koty, kot | коти, кіт | кошки, кот | 猫
celebration | celebrations | świętowanie | свято | праздник | 庆祝
cheese | | ser, sery | сир | сыр | 奶酪
chess | | szachy | шахи | шахматы | 国际象棋
chocolate | | czekolada | шоколад | шоколад | 巧克力
climbing | bouldering | wspinaczka | скелелазіння | скалолазание | 攀岩
cocktails | mixology | koktajle, drinki | коктейлі | коктейли | 鸡尾酒
coffee | espresso | kawa, kawą, kawę, kawy | кава, кавою, каву | кофе | 咖啡
comics | manga | komiksy | комікси | комиксы | 漫画
cooking | cook, cuisine | gotowanie, kuchnia | кулінарія, готування | кулинария, готовка | 烹饪, 做饭
cozy | cosy | przytulność | затишок | уют | 温馨
crafts | craft, diy | rękodzieło | рукоділля | рукоделие | 手工
cycling | bike, biking, bicycle | kolarstwo, rower | велоспорт, велосипед | велоспорт, велосипед | 骑行, 自行车
decor | decoration | dekoracje, wystrój | декор | декор | 装饰
dogs | dog | psy, pies | собаки, пес | собаки, собака | 狗
dolls | doll | lalki | ляльки | куклы | 娃娃
drawing | draw | rysowanie, rysunek | малювання | рисование | 绘画, 素描
drums | drummer | perkusja, bębny | барабани | барабаны | 鼓
embroidery | cross-stitch | haft, haftowanie | вишивка | вышивка | 刺绣
entertaining | hosting | przyjęcia | прийом гостей | приём гостей | 待客
family | | rodzina | сім'я, родина | семья | 家庭
fantasy | | fantastyka | фентезі | фэнтези | 奇幻
fashion | clothes | moda | мода | мода | 时尚
fishing | angling | wędkarstwo | риболовля | рыбалка | 钓鱼
fitness | workout, gym | fitness, siłownia | фітнес | фитнес | 健身
food | foodie | jedzenie | їжа | еда | 美食
football | soccer | piłka nożna | футбол | футбол | 足球
fragrance | perfume | perfumy, zapachy | парфуми, аромати | парфюмерия, духи | 香水
gadgets | gadget | gadżety | гаджети | гаджеты | 小工具
games | game | gry | ігри | игры | 游戏
gaming | video games, gamer | gry wideo, granie | відеоігри | видеоигры | 电子游戏
gardening | garden, gardener | ogrodnictwo, ogród | садівництво, сад | садоводство, сад | 园艺
golf | | golf | гольф | гольф | 高尔夫
grooming | | pielęgnacja | догляд | уход | 护理
guitar | guitarist | gitara | гітара | гитара | 吉他
haircare | hair | pielęgnacja włosów, włosy | догляд за волоссям | уход за волосами | 护发
harmonica | | harmonijka | губна гармоніка | губная гармошка | 口琴
hiking | hike, trekking | wędrówki, turystyka | походи | походы | 徒步
history | | historia | історія | история | 历史
home | house | dom | дім | дом | 家居
honey | | miód | мед | мёд, мед | 蜂蜜
illustration | | ilustracja | ілюстрація | иллюстрация | 插画
jewelry | jewellery | biżuteria | прикраси | украшения | 首饰, 珠宝
journaling | journal | dziennik, pisanie dziennika | щоденник | дневник | 手账
kids | children | dzieci | діти | дети | 儿童
knitting | knit | dzierganie, robótki na drutach | в'язання | вязание | 编织
knives | knife | noże | ножі | ножи | 刀具
lego | | lego, klocki lego | лего | лего | 乐高
makeup | make-up | makijaż | макіяж | макияж | 化妆
meditation | mindfulness | medytacja | медитація | медитация | 冥想
music | jazz, rock, classical music, musician | muzyka, jazz, jazzem | музика, джаз, джазом, джазу | музыка, джаз, джазом, джаза | 音乐, 爵士
mystery | detective | kryminał, kryminały | детектив | детектив | 悬疑
nail-art | nails | paznokcie, stylizacja paznokci | манікюр | маникюр | 美甲
office | work | biuro | офіс | офис | 办公
olive-oil | | oliwa | оливкова олія | оливковое масло | 橄榄油
outdoors | outdoor, nature | natura, na świeżym powietrzu | природа, відпочинок на природі | природа, отдых на природе | 户外
painting | paint, painter | malarstwo, malowanie | живопис, малювання фарбами | живопись | 绘画, 油画
party | parties | impreza, imprezy | вечірка | вечеринка | 派对
pasta | | makaron | паста | паста | 意面
pets | pet | zwierzęta domowe, zwierzaki | домашні тварини | домашние животные, питомцы | 宠物
photography | photo, photos, camera | fotografia | фотографія | фотография | 摄影
piano | pianist | pianino, fortepian | фортепіано, піаніно | фортепиано, пианино | 钢琴
planning | planner | planowanie | планування | планирование | 计划
plants | houseplants, plant | rośliny | рослини | растения | 植物
podcasting | podcast, podcasts | podcasty | подкасти | подкасты | 播客
poetry | poems | poezja, wiersze | поезія, вірші | поэзия, стихи | 诗歌
pottery | ceramics | ceramika, garncarstwo | кераміка, гончарство | керамика, гончарство | 陶艺
pretend-play | role play | zabawa w udawanie | рольові ігри | ролевые игры | 过家家
printmaking | linocut | grafika, linoryt | гравюра | гравюра | 版画
puzzles | puzzle, jigsaw | puzzle, łamigłówki | пазли, головоломки | пазлы, головоломки | 拼图
reading | reader, read | czytanie | читання | чтение | 阅读
recording | | nagrywanie | звукозапис | звукозапись | 录音
recovery | | regeneracja | відновлення | восстановление | 恢复
relaxation | relax, relaxing | relaks | релакс, відпочинок | релакс, отдых | 放松
retro | vintage | retro | ретро | ретро | 复古
romance | romantic | romantyzm, romantyczne | романтика | романтика | 浪漫
running | run, runner, jogging | bieganie | біг | бег | 跑步
sci-fi | science fiction | science fiction, fantastyka naukowa | наукова фантастика | научная фантастика | 科幻
science | | nauka | наука | наука | 科学
scrapbooking | | scrapbooking | скрапбукінг | скрапбукинг | 剪贴簿
self-care | | dbanie o siebie | турбота про себе | забота о себе | 自我关爱
sketching | sketch | szkicowanie | скетчинг, ескізи | скетчинг, наброски | 速写
skincare | skin care | pielęgnacja skóry | догляд за шкірою | уход за кожей | 护肤
sleep | sleeping | sen | сон | сон | 睡眠
smart-home | | inteligentny dom | розумний дім | умный дом | 智能家居
snacks | snack | przekąski | снеки, закуски | снеки, закуски | 零食
sneakers | trainers | sneakersy, buty sportowe | кросівки | кроссовки | 球鞋
spices | spice | przyprawy | спеції | специи | 香料
spicy-food | hot sauce | ostre jedzenie | гостра їжа | острая еда | 辣味
sports | sport | sport | спорт | спорт | 运动
stationery | | artykuły papiernicze, papeteria | канцелярія | канцелярия | 文具
strategy | | strategia | стратегія | стратегия | 策略
strength-training | weightlifting | trening siłowy | силові тренування | силовые тренировки | 力量训练
style | | styl | стиль | стиль | 风格
sustainability | eco | ekologia, zrównoważony rozwój | екологія | экология | 环保
swimming | swim | pływanie | плавання | плавание | 游泳
tabletop | rpg | gry fabularne | настільні рольові ігри | настольные ролевые игры | 桌面游戏
tea | | herbata, herbatą, herbatę, herbaty | чай, чаєм, чаю | чай, чаем, чая, чаю | 茶
tech | technology | technologia, technika | технології | технологии | 科技
tennis | | tenis | теніс | теннис | 网球
tools | tool, diy tools | narzędzia, majsterkowanie | інструменти | инструменты | 工具
toys | toy | zabawki | іграшки | игрушки | 玩具
trains | train | pociągi, kolejki | потяги, потяг | поезда, поезд | 火车
travel | travelling, traveling | podróże | подорожі | путешествия | 旅行
ukulele | | ukulele | укулеле | укулеле | 尤克里里
vinyl | records | winyle, płyty winylowe | вініл, платівки | винил, пластинки | 黑胶
walking | walks | spacery | прогулянки | прогулки | 散步
watches | watch | zegarki | годинники | часы | 手表
watercolor | watercolour | akwarela | акварель | акварель | 水彩
wellness | wellbeing | zdrowie, dobre samopoczucie | здоров'я | здоровье | 健康
wine | | wino, winem, wina | вино, вином | вино, вином | 葡萄酒
winter | | zima | зима | зима | 冬季
writing | writer | pisanie | письмо | письмо | 写作
yoga | | joga | йога | йога | 瑜伽
art_supplies | art supplies | przybory plastyczne | товари для творчості | товары для творчества | 美术用品
electronics | | elektronika | електроніка | электроника | 电子产品
garden | | ogród | сад | сад | 花园
jewelry | | biżuteria | прикраси | украшения | 首饰
kitchen | | kuchnia | кухня | кухня | 厨房
outdoors | | natura | природа | природа | 户外
"""


def vocabulary_rows() -> list[tuple[str, str, str, list[str]]]:
    """(tag, language, label, forms) for every tag and language; identical on every call. A
    tag listed twice (a tag that is also a category) keeps its first line's words first."""
    merged: dict[tuple[str, str], list[str]] = {}
    for line in _TABLE.strip().splitlines():
        tag, english, *others = (cell.strip() for cell in line.split("|"))
        words = [f"{tag.replace('_', ' ')}, {english}", *others]
        for language, cell in zip(LANGUAGES, words, strict=True):
            forms = merged.setdefault((tag, language), [])
            forms += [w.strip() for w in cell.split(",") if w.strip() and w.strip() not in forms]
    return [(tag, language, forms[0], forms[1:]) for (tag, language), forms in merged.items()]
