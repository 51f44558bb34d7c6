/**
 * The keywords of an installed package's docs database. They decide which web searches are denied and sent
 * to the local index, so they must be precise: a search that names the package as a package matches, one
 * that only uses an ordinary word does not. Matching is lib/match/keywords.ts: case-insensitive, whole
 * words, multi-word keywords across any whitespace.
 *
 * Deliberate choices, each measured against tests/project_keywords_test.ts:
 * - "react" and "vue" are distinctive: in a developer's searches "react" is the library (the verb comes as
 *   "react to", rare there) and "vue" is not an English word. Gating them would lose "react useEffect
 *   cleanup", the way nearly every React search is typed.
 * - "express" is an English word, so it needs "npm" or "js" beside it: "SQL Server Express", "Stripe
 *   express checkout" and "express delivery" are searches too, and Express users write "express js",
 *   "express.js", "expressjs" or "express npm" often enough.
 * - Tools and languages that are themselves the package ("typescript", "eslint", "prettier", "jest",
 *   "flask") stay distinctive: a search about the tool is a search about the installed package.
 * - "X package", "X module" and "X library" are never keywords: "python glob module" is the stdlib,
 *   "test package locally" a verb, "express package" a parcel.
 * - "X js", "python X" and "X python" read as "X in that language" ("file path js", "python docker
 *   image"), so only English words that are not programming terms get them.
 */

export type Ecosystem = "npm" | "python" | "go" | "rust";

/**
 * How a name reads in a search, which decides the keywords that stand for it:
 * - distinctive ("zod", "htmlparser2", "node-fetch"): the name alone.
 * - word, an English word ("chalk", "commander", "express", "requests"): beside its ecosystem ("chalk
 *   npm", "npm chalk", "chalk js", "chalk.js", "chalkjs", "python requests", "requests python") or in an
 *   install or import command.
 * - term, a programming term or a two-letter name ("glob", "mime", "redis", "ms"): "glob npm", "npm glob"
 *   or a command, as "glob js" and "python redis" are how one asks about the concept in that language.
 * - phrase ("debug", "once", "request", "click", "rich"): a command only, as these words sit beside "npm",
 *   "js" and "python" in ordinary searches ("debug npm install errors", "run once js", "http request js",
 *   "selenium python click element", "python rich comparison").
 */
type Kind = "distinctive" | "word" | "term" | "phrase";

/**
 * The most frequent English words, written from memory, with a few rarer ones that name packages ("chalk",
 * "commander", "marked"); without regular plurals, which are found through their stem. "requests" is
 * listed because its stem is a phrase word while "python requests" names the library.
 */
const ENGLISH_WORDS = words(`
a able above accept account achieve across act active actor actually admit adult affect afraid afternoon
age agency ago agreement ahead air alive almost alone along already although always among amount an
analysis ancient and anger angle animal announce annual another answer any anybody anyone anything
anyway apart apartment apparent apparently appearance appointment appreciate approach appropriate
approve are area argue around arrange arrangement arrest arrive art article as aside assume at ate
atmosphere attach attack attempt attend attention attitude attract audience authority auto available
average award aware away back bad bag bake balance ball band bank barely base basic basis basket battle
be bear beat beautiful became because become bed bedroom been began beginning behavior behind belief
believe belong below bench benefit beyond big bike bill billion bird birth bite black blade blame
blanket blind blow blue board boat bond book born borrow boss both bottle bought bound bowl brain brand
breath breathe brief bright brilliant bring broad broke brought brown brush buck budget building built
bullet burn bus business busy but cabinet cable calculate came camera camp campaign campus can candidate
cap capability capacity capital captain capture car carbon care career cash cast cat category ceiling
celebrate celebrity central century certain certainly chair chairman chalk challenge chance channel
chapter charge charity chase cheap chemical chief child childhood chip choice chose circle circumstance
cite citizen city civil claim classic classroom clear clearly clinic clock closer clothes club coast
coat cognitive coin cold colleague collect collective college colony combination combine comfort
comfortable commander commercial commission commitment committee common communicate communication
community company comparison compete competition competitive complain complaint complete completely
complex computer concept concern concert conclude conclusion concrete conduct conference confidence
conflict confront confusion consequence conservative considerable constantly constitute construct
construction consult consumer contact contain contemporary contest contract contrast contribute
contribution convention conversation convince cook cool cooperation cope corner corporate correct cost
could country county couple courage course court crack craft crash crazy cream creative credit crew
crisis criteria critic critical crop crowd crucial cry cultural culture cup customer cycle daily damage
dance danger dangerous dark dead deal dear death debate debt decade decision decline deeply defense
definition degree delay deliver delivery demand deny department depend deposit depression deputy derive
describe desert deserve desire desk desktop desperate despite destruction determine development devote
dialogue did difference different difficult dig dimension direct direction directly director dirt dirty
disability disagree disappear discipline discount discourse discover discovery discrimination discuss
distance distinct distinction distinguish distribute distribution district diverse divide division do
does dog domestic dominant dominate done door doubt down dozen draft drama dramatic drawing dream dress
drew drink drive drove drug dry due dust duty each eager early earn earth ease easily east easy echo
economic economy edge edition educate education educational effective efficient effort eight either
elderly elite else embrace emerge emergency emotion emotional emphasis employ employee employer
employment encounter encourage end enemy energy engage engineer engineering enhance enjoy enormous
enough ensure enter enterprise entertainment entire episode equally equipment era especially essay
essential essentially establish estate estimate etc evaluate evaluation even evening eventually ever
every everybody everyone everything evidence exact exactly examine example exchange excited exciting
executive exercise exhibit exhibition exist expand expansion expectation expense expensive experience
experiment expert explanation explode explore explosion expose exposure express extensive extent
external extra extraordinary extreme extremely fabric face facility fact factor fail faith family fan
fantasy far farm farmer fashion fat fault favor favorite fear fed federal fee feeling fell felt female
few fiber fiction fight film final finally financial finding fine finish fire firm fish fishing fit five
flat flavor flight floor flower fluid fly folk following food foot force foreign forest forever forget
forgot formal former formula fortune fought found foundation four freedom frequency frequent frequently
friend front fruit fuel funding funny furniture gain gallery game gap garden gas gate gather gave gaze
gear gene general generation generous gift given glad glass glove goal gold golden gone government grab
grade gradually grain grand grant grass grave gray great green grew ground growth guarantee guard guess
guest guide guideline guilty habit had half hall hand hang happen happy hard harm has hat hate have he
head headline health hear heard hearing heart heat heavy held hello helpful her here hero herself hid
high highly hill him himself hire his historic historical hold hole holiday home honest honor horizon
horror hospital hot hotel hour house household housing how however huge human hundred hung hunt hunting
hurt ice idea ideal identify identity if ill illegal illustrate imagine impact imply important impose
impossible impress impression impressive improve incident including income incorporate increase indeed
independent indicate indication individual industry influence inform information initial initiative
injury inner innocent inquiry insight insist inspire instead institution instruction instrument
insurance intellectual intelligence intend intense intention interaction interest interesting internal
international internet interpret interpretation intervention interview introduce introduction invest
investigate investigation investment investor invite involve is island isolate it its itself job joke
journal journey judge judgment jump junior justice justify kept killer kind king kitchen knew knife
knock know knowledge known labor lack laid lake lamp land landscape lane laptop large largely laser late
later latter laugh launch law lay leader leadership league lean least lecture led left legal lens lesson
letter liberal license lie life lift likely limited liquid literally literary literature little live
loan locate logic lonely long loose lord lose loss lost lot loud love lovely low lucky made magazine
mainly maintain major majority male mall man manage management manager manner manufacturer many mark
marked market mass massive master mate material matter maximum may maybe me meaning meant meanwhile
measure mechanism medical medicine medium meet meeting mental mention mere merely mess met metal meter
middle might mild mile military milk million mind mine minister minor minority minute miracle mirror
miss mission mistake mix mixture mobile modern moment money month moral more moreover morning most
mostly motor mountain movement movie much museum music must mutual my myself mystery myth narrative
narrow nation national natural nature near nearby nearly necessary negative negotiate neighbor neither
nervous net neutral never nevertheless news newspaper next nice night nine no nobody nod noise none nor
normal normally north not nothing notice novel nuclear nurse nut objective obligation observation
observe observer obtain obvious obviously occasion occasionally occur odd of off offense offensive
office officer official offline often oh oil ok okay one online onto opening operate operation opinion
opponent opportunity oppose opposite or orange ordinary organic organization organize original other
otherwise ought our out outcome outside oven overall owe own pace paid pain painting palm pan paper
parking part participant particular particularly partly partner party passage passenger passion past
patience patient pay peace peak penalty pension people per percent percentage perception perfect
perfectly perform performance perhaps period permanent permission permit person personal phase
philosophy photo photograph phrase physical physician piano picture piece pile pilot pine pink pitch
plan plane planet plant plastic plate play please plenty plot plus pm pocket poem poet poetry pole
police policy poll poor popular population porch portion portrait pose positive possibility possible pot
potential pound pour poverty power powerful practical practice precisely predict prefer preference
premium prepare presence present preserve president pressure presumably prevent price primary prime
principal principle prior priority privacy prize probably problem procedure proceed producer production
profession professional professor profit promote proof proper proportion proposal propose prospect
protect protection protein protest proud prove provider province provision psychological psychology pure
purpose pursue quality quarter queen question quick quickly quiet quite race rain ran rang rank rapid
rapidly rare rarely rather rating ratio reading ready reality really rear reason reasonable recall
recent recently recipe recognize recommend recommendation recover recovery recruit red reduction refer
reform refuse regard regime region regional regular regularly regulate regulation reject relate
relationship relief rely remain remaining remarkable remind rent represent requests rescue research
resident resist resistance resort respect respond respondent responsibility restaurant restore
restriction retain retire retirement reveal revenue review revolution rhythm rid ride right rise risk
rival river road rock rode roll romantic roof room rope rose rough routine royal rub rural rush sad said
sake sale salt same sand sang sat satellite satisfaction satisfy saw say scared scenario scene scheme
scholar scholarship school science scientist score sea season seat second secret secretary sector seek
seen segment senior sense sensitive sent sentence separate series serious settle settlement seven
several severe shade shake share sharp she shelf shelter shine ship shirt shock shoe shook shoot shop
shopping shore short shot should shut sick side sight significant silence silent silver similar
similarly simply since sing single sink sit site situation six skill sky sleep slept slide slightly slip
slow slowly small smart smell smile smoke smooth snap snow so social society soft software soil solar
solid solution solve some somebody somehow someone something sometimes somewhat song soon sorry sought
soul south southern spare special specific speech spent spirit spoke sport spot spread spring stable
staff stage stair stake stand standard station steady steal steel step stick still stir stock stone
stood storm story straight strange stranger strategy street strength stress stretch strike strip stroke
strong struck struggle stuck student studio study stuff stupid subject substance succeed success
successful such suck sudden suddenly suffer sugar suggest suggestion suit summer supply supporter
suppose supreme sure surface surprise surprised surround survey survival survive suspect sustain swear
sweep sweet swept swim swing sympathy taken tale tall tank tape taste taught tax tea teach teacher tear
technical technique technology telephone telescope television temperature temporary ten tend tent
terrible territory than thank that the their them themselves theory there these they thick thin thing
think third this those though thought thousand threat threaten three threw throughout throw thus tie
tight tiny tip tire tired tissue today together told tomorrow tone tonight too took tool topic tore toss
total tough tour tourist toward tower town toy track trade tradition traditional traffic tragedy trail
train training transfer translate transportation trap trash travel treat treatment treaty trend trial
trick trip trouble truck true truly trust truth tube tunnel tv twice twin two typical typically ugly
ultimately unable undergo understood universe university unknown unless unlike unlikely up upon urban
urge us used useful usual usually vacation valley valuable variation variety various vast vegetable
vehicle venture versus very vessel veteran village virtue virus visible vision visit visitor visual
vital voice volunteer vulnerable wage wall war was waste water wave way we weak wealth wear weather
website week weekend weight welcome welfare well went were west western what whatever whenever whereas
whether whisper white who whole whom whose why wide wild wildlife will willing win wind wing winner
winter wire wise wish witness woke woman won wonder wood wooden word wore work working workshop worry
worse worst worth would wound writer written wrong wrote yard yeah year yellow yes yesterday yet yield
you young your yourself youth zero`);

/**
 * Programming terms that are package names on npm and PyPI ("glob", "mime", "yaml", "cors", "attr"),
 * products whose client package shares their name ("redis", "docker"), and English words that are everyday
 * terms in code ("index", "size", "title", "world" as in "hello world js").
 */
const PROGRAMMING_WORDS = words(`
abort accelerate accepts action adapter addon address agent ajax alert alias align alloc allocate
ampersand anchor animate ansi api app application arch archive arg argv arrow ascii assert asset
asterisk asyncio atom attr attribute audio auth authenticate author autocomplete await backend backslash
backup badge bar base64 bash batch bcrypt benchmark binary bit bitmap blob block blocks body bool
boolean boot bootstrap border bot bottom bounce box brace bracket branch breakpoint bridge browser bson
bug builder bun bundler button byte callback camelcase canvas capitalize card caret cart case cell
center chain char character charset chart chat checkbox checksum chmod chrome chunk cipher cli client
clip clipboard closure cloud cluster cmd codec codegen coffee collapse collection colon column combobox
comma command comment commit compiler component compression concat concurrency concurrently condition
conf confirm connection const constant constructor container content context control cookie core cors
count counter coverage cpu crc cron cross crud crypto cryptography css csv curl cursor daemon dash
dashboard database dataclass dataset day debugger decimal decorator defer delegate dependency depth
deque dequeue design detail dev device dialog digest dir directory disk display dist distro dns doc
docker document domain dot dotdot double drag drop dropdown dump editor effect element email emitter
emoji encoding endpoint engine entity entry enum env environment equal etag eval exit expression
extension extract feature field figure fixture flag float flow focus font fork form formatter forward
forwarded frame framework fs fsevents ftp future fuzzy gateway generator getter gif git glob graph
graphql grid group grpc gui gzip handler hash header heap height helper hex hidden history hook host
href html http hub hyphen hypothesis icon id ide idle image imap index inflate inherit ini inline input
inquire insert inspect instance int integer interface intl invariant io ip issue item iterator jpeg js
jsonp jsx jwt kafka kernel keyboard kubernetes label lambda language latex layer layout ldap leaf less
level lexer lib library light limit line linter loader locale location lock logger logging logo lru mac
machine mail main markdown mask math md5 media member memo memory menu mesh message meta method
middleware mime mixin mkdir mode model mongo mongodb monitor motion mouse ms multipart mutex mysql name
nan nav navigation neo network node noop note notify npm null numeral oauth oauth2 observable openapi
operator optimize option optional ora order origin orm os output overlay packaging padding page pager
pagination pair panel parent parser patch pathlib pattern pause payload pdf peer perf pg phone php pid
pip pipe pipeline pixel platform player plugin png polyfill pool popup port position post postgres
postgresql preload preset press preview product program progress project prompt prop property proto
protocol proxy pubsub punycode querystring queue quote radio range rate reader readline readme realm
receiver record redirect redis ref reference reflect refresh regex regexp register registry release
reload repeat repl reply resize resource rest result ring role round route router row rpc rss ruby rule
runner runtime rust sample sandbox scaffold scale schedule scheduler schema scope screen screenshot
scroll sdk section security select selection selector semaphore semicolon sequence serial server service
session setter sha sha1 sha256 shadow shape sheet shell shim signal signature sitemap size slash slider
slug smtp snapshot socket sound source space spec spinner spy sql sqlite square ssh ssl stack stat state
statement status stdin stdout storage structure stub sudo super svg swagger switch symbol syntax system
tab table tag tail tap tar target task tcp template term terminal tester theme thread thumbnail tick
tilde timeout title tls toast todo tokenizer toml tooltip top touch transform transformer transition
tree trie tsv tsx tty tui tuple typed typing ui uid underscore undo unicode unique unit unzip upper
username utf8 util uuid validation validator vary vector video virtual vm volume walk watcher web
webhook webp websocket wheel widget window wizard worker world wrapper ws xml xpath xss yaml yarn zip
zlib zone zsh`);

/**
 * Words that sit beside "npm", "js" and "python" in ordinary searches: verbs ("debug npm", "resolve npm
 * conflict"), npm subcommands ("npm ci", "npm config"), prepositions and adverbs ("loop through js", "run
 * once js"), adjectives ("pretty print js") and the languages' own concepts ("file path js", "background
 * color js", "set content-type js").
 */
const PHRASE_WORDS = words(`
about access add after again against agree all allow also appear apply array ask assign async audit
avoid before begin best better between bin bind break buffer bugs build bundle buy by cache
cache-control call carry catch cause change check choose ci class clean click clone close code color
come compare compile completion compose compress config configure connect consider console
content-disposition content-type continue convert copy cover create current cut data date debounce debug
decide decode decompress decrypt dedupe deep default define delete deploy destroy detect develop die
diff disable disconnect dispatch docs doctor dom download draw during dynamic eat edit emit empty enable
encode encrypt error escape event exec execute expect explain export extend fall fast feel fetch file
fill filter find first fix flatten flush follow for format free fresh from full function fund generate
get give global go good got grow handle help hide highlight hit hope ignore import in include init
inject inside install into invoke join json just keep key kill last latest lazy lead learn leave let
like link lint list listen load local log login logout look loop ls make map match mean memoize merge
migrate minify mock module mount move native need new normalize now number object offer old omit on once
only open org outdated over owner pack package pad parse pass path pick ping place point pop prefix
prettify pretty print private process produce profile promise provide prune public publish pull push put
query raise random raw reach read real realize rebuild receive reduce remember remote remove render
replace repo report request require reset resolve response retry return rich root run safe sanitize save
scan script search see seem sell send serialize serve set set-cookie setup shift show shrinkwrap sign
simple slice sort source-map spawn speak spend split star start static stay stop store stream strict
string style submit support sync take talk team tell test text then throttle through time timer to
toggle token trace trim try turn type under understand uninstall until update upgrade upload url use
user user-agent validate value variable verify version via view wait want watch when where which while
whoami with within without wrap write`);

function words(list: string): Set<string> {
  return new Set(list.split(/\s+/).filter((word) => word !== ""));
}

/** Suffix and its replacements: "entities" -> "entity", "marked" -> "mark", "parsing" -> "parse". */
const INFLECTIONS: [string, string[]][] = [
  ["ies", ["y"]],
  ["es", [""]],
  ["s", [""]],
  ["ed", ["", "e"]],
  ["ing", ["", "e"]],
];

function stems(word: string): string[] {
  const found: string[] = [];
  for (const [suffix, replacements] of INFLECTIONS) {
    const root = word.slice(0, -suffix.length);
    if (!word.endsWith(suffix) || root.length < 2) continue;
    found.push(...replacements.map((replacement) => root + replacement));
    // "running" -> "run", "stopped" -> "stop".
    if (root.length >= 3 && root.at(-1) === root.at(-2)) found.push(root.slice(0, -1));
  }
  return found;
}

function listedKind(word: string): Kind | undefined {
  if (PHRASE_WORDS.has(word)) return "phrase";
  if (PROGRAMMING_WORDS.has(word)) return "term";
  if (ENGLISH_WORDS.has(word)) return "word";
  return undefined;
}

function nameKind(name: string): Kind {
  // The name itself first, so "requests" is a word though "request" is a phrase word.
  const listed = listedKind(name) ?? stems(name).map(listedKind).find((kind) => kind !== undefined);
  // Two letters abbreviate too many things ("ms", "qs", "pg", "ws"), and "is js" is in "what is js":
  // never more than a term. A digit keeps "d3" distinctive. Three-letter names are left to the word
  // lists, so "zod" and "vue" are distinctive and "six" and "ora" are not.
  if (/^[a-z]{1,2}$/.test(name)) return listed === "phrase" ? listed : "term";
  // Unlisted: a word too rare in prose to be mistaken ("lodash"), or a name with a digit or punctuation
  // ("htmlparser2", "node-fetch", "lodash.merge", "socket.io").
  return listed ?? "distinctive";
}

/**
 * Whether a name, as a keyword on its own, is a word of ordinary prose ("guide", "docs", "express"): a search
 * that merely uses it would match. Programming terms ("postgres", "rust") name what their docs are about.
 */
export function proseWord(name: string): boolean {
  const kind = nameKind(name.trim().toLowerCase());
  return kind === "word" || kind === "phrase";
}

function npmForms(name: string, kind: Kind): string[] {
  const install = [`npm install ${name}`, `npm i ${name}`];
  switch (kind) {
    case "distinctive":
      return [name];
    case "word":
      return [`${name} npm`, `npm ${name}`, `${name} js`, `${name}.js`, `${name}js`, ...install];
    case "term":
      return [`${name} npm`, `npm ${name}`, ...install];
    case "phrase":
      return install;
  }
}

function pythonForms(name: string, kind: Kind): string[] {
  const module = name.replaceAll("-", "_");
  const commands = [`pip install ${name}`, `import ${module}`, `from ${module} import`];
  switch (kind) {
    case "distinctive":
      return [name];
    case "word":
      return [`python ${name}`, `${name} python`, ...commands];
    case "term":
    case "phrase":
      return commands;
  }
}

/**
 * A Go module by its path, which no ordinary search contains ("github.com/google/uuid"), also without its major
 * version ("/v5", ".v3") and host ("google/uuid", "pkg/errors", "x/text"); by its last element as other names
 * are: "logrus" alone, an English word beside "golang", a term or phrase word ("uuid", "errors") never alone.
 */
function goKeywords(path: string): string[] {
  const unversioned = path.replace(/\/v\d+$/, "").replace(/\.v\d+$/, "");
  const elements = unversioned.split("/");
  const keywords = [path, unversioned];
  // "gopkg.in/yaml" without its host would be the bare word "yaml".
  if (elements.length >= 3) keywords.push(elements.slice(1).join("/"));
  const short = elements[elements.length - 1];
  switch (nameKind(short)) {
    case "distinctive":
      keywords.push(short);
      break;
    case "word":
      keywords.push(`golang ${short}`, `${short} golang`);
      break;
  }
  return keywords;
}

/**
 * A crate by its name, in both spellings Rust uses ("serde_json" is imported as written, "proc-macro2" as
 * "proc_macro2"): on its own when distinctive; an English word beside "rust" or "crate"; a programming term as
 * "X crate"; a phrase word ("log", "once") only in `cargo add`.
 */
function rustKeywords(name: string): string[] {
  const spellings = [...new Set([name, name.replaceAll("-", "_"), name.replaceAll("_", "-")])];
  const kind = nameKind(name.replace(/[-_]+/g, "-"));
  return spellings.flatMap((spelling) => {
    const add = `cargo add ${spelling}`;
    switch (kind) {
      case "distinctive":
        return [spelling];
      case "word":
        return [`${spelling} rust`, `rust ${spelling}`, `${spelling} crate`, add];
      case "term":
        return [`${spelling} crate`, add];
      case "phrase":
        return [add];
    }
  });
}

function npmKeywords(name: string): string[] {
  const scoped = /^@([^/]+)\/(.+)$/.exec(name);
  if (scoped === null) return npmForms(name, nameKind(name));
  const [, scope, bare] = scoped;
  // Without the "@" too, as a keyword needs the text to hold all of it; second, so that a search with the
  // "@" reports the full name.
  const keywords = [name, name.slice(1)];
  // "@types/react"'s last part is another package's name: as a keyword it would take every React search.
  if (scope !== "types" && nameKind(bare) === "distinctive") keywords.push(bare);
  return keywords;
}

function pythonKeywords(name: string): string[] {
  const normalized = name.replace(/[-_.]+/g, "-");
  const kind = nameKind(normalized);
  const keywords = pythonForms(normalized, kind);
  // PEP 503 folds "typing_extensions" into "typing-extensions", but people type the import spelling.
  if (normalized !== name && kind === "distinctive") keywords.push(name);
  // "python-dateutil" is imported and searched for as "dateutil", "opencv-python" as "opencv".
  const bare = /^python-(.+)$/.exec(normalized)?.[1] ?? /^(.+)-python$/.exec(normalized)?.[1];
  if (bare !== undefined && nameKind(bare) === "distinctive") keywords.push(bare);
  return keywords;
}

/**
 * The keywords for a package, most specific spelling first: npm names lower-case; Python names normalized
 * per PEP 503 (lower-case, each run of "-", "_" and "." as one "-"), with the typed spelling beside it; Go
 * modules by their path; Rust crates in both their spellings.
 */
export function packageKeywords(ecosystem: Ecosystem, name: string): string[] {
  const lower = name.trim().toLowerCase();
  if (lower === "") return [];
  const keywords = ecosystem === "npm"
    ? npmKeywords(lower)
    : ecosystem === "python"
    ? pythonKeywords(lower)
    : ecosystem === "go"
    ? goKeywords(lower)
    : rustKeywords(lower);
  return [...new Set(keywords)];
}
