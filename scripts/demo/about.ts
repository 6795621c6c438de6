/**
 * "About me" texts built from phrase templates in the five languages of the demo countries.
 * Interests appear as phrases that fit the sentence ("a good glass of wine"), not as bare tags.
 */
import type { Gender } from "./names";
import { Random } from "./random";

export const ABOUT_LANGUAGES = ["en", "nl", "de", "fr", "it", "es", "fi"] as const;
export type AboutLanguage = (typeof ABOUT_LANGUAGES)[number];

export interface AboutFacts {
  name: string;
  age: number;
  city: string;
  gender: Gender;
  country: string;
  /** Interest slugs (see interests.ts). */
  interests: readonly string[];
}

interface Ctx extends AboutFacts {
  list: string;
  t1: string;
  t2: string;
}

type Template = (c: Ctx) => string;

interface Phrases {
  and: string;
  openers: readonly Template[];
  interests: readonly Template[];
  /** [for men, for women]; a single form when it doesn't change. */
  traits: readonly (string | readonly [string, string])[];
  personality: readonly Template[];
  lookingFor: readonly string[];
  closers: readonly string[];
  /** How each interest reads inside "I love …". */
  interestPhrases: Readonly<Record<string, string>>;
}

const cap = (s: string) => s.charAt(0).toLocaleUpperCase() + s.slice(1);

/** French "à" before a town name: "au Locle", "aux …", "à Genève". */
function frIn(city: string): string {
  if (city.startsWith("Le ")) return `au ${city.slice(3)}`;
  if (city.startsWith("Les ")) return `aux ${city.slice(4)}`;
  return `à ${city}`;
}

const EN: Phrases = {
  and: "and",
  openers: [
    (c) => `Hi, I'm ${c.name}, ${c.age}, from ${c.city}.`,
    (c) => `Hey there! ${c.name} here, ${c.age} and living in ${c.city}.`,
    (c) => `Hello! I'm ${c.name} (${c.age}) and I live in ${c.city}.`,
    (c) => `Hi! My name is ${c.name} and I'm ${c.age}.`,
  ],
  interests: [
    (c) => `In my free time I love ${c.list}.`,
    (c) => `I'm really into ${c.list}.`,
    (c) => `You'll often find me enjoying ${c.list}.`,
    (c) => `My favourite things? ${cap(c.list)}.`,
    (c) => `Weekends are for ${c.list}.`,
  ],
  traits: [
    "easy-going",
    "spontaneous",
    "honest",
    "caring",
    "adventurous",
    "down-to-earth",
    "cheerful",
    "curious",
    "romantic",
    "sporty",
    "calm",
    "outgoing",
    "creative",
    "loyal",
    "positive",
  ],
  personality: [
    (c) => `Friends describe me as ${c.t1} and ${c.t2}.`,
    (c) => `I'm ${c.t1}, ${c.t2} and I love a good laugh.`,
    (c) => `People say I'm ${c.t1}, but I can also be quite ${c.t2}.`,
    (c) => `I'd describe myself as ${c.t1} and ${c.t2}.`,
  ],
  lookingFor: [
    "I'm looking for someone to share good conversations and a glass of wine with.",
    "Looking for someone who can make me laugh and isn't afraid of a little adventure.",
    "I'd love to meet someone genuine, nothing too serious to start with.",
    "Hoping to meet someone nice for fun dates, and who knows what else.",
    "Not looking for perfection, just someone real.",
    "I'm here to meet new people and see where it goes.",
  ],
  closers: ["Send me a message!", "Say hi, I don't bite 😉", "Curious? Just send me a message.", "Let's chat!"],
  interestPhrases: {
    music: "music",
    travel: "travelling",
    cooking: "cooking",
    baking: "baking",
    hiking: "hiking",
    cinema: "going to the cinema",
    reading: "a good book",
    dancing: "dancing",
    fitness: "the gym",
    running: "running",
    cycling: "cycling",
    swimming: "swimming",
    yoga: "yoga",
    photography: "photography",
    art: "art",
    theatre: "the theatre",
    concerts: "concerts",
    festivals: "festivals",
    wine: "a good glass of wine",
    "dining-out": "eating out",
    coffee: "coffee",
    nature: "nature",
    beach: "the beach",
    camping: "camping",
    gardening: "gardening",
    animals: "animals",
    dogs: "dogs",
    cats: "cats",
    gaming: "gaming",
    technology: "technology",
    fashion: "fashion",
    shopping: "shopping",
    football: "football",
    tennis: "tennis",
    skiing: "skiing",
    sailing: "sailing",
    motorcycles: "motorbikes",
    painting: "painting",
    "board-games": "board games",
    museums: "museums",
    history: "history",
    meditation: "meditation",
  },
};

const NL: Phrases = {
  and: "en",
  openers: [
    (c) => `Hoi, ik ben ${c.name}, ${c.age} jaar en ik woon in ${c.city}.`,
    (c) => `Hey! ${c.name} hier, ${c.age}, uit ${c.city}.`,
    (c) => `Hallo, ik ben ${c.name} (${c.age}) uit ${c.city}.`,
    (c) => `Hoi! Mijn naam is ${c.name} en ik ben ${c.age}.`,
  ],
  interests: [
    (c) => `In mijn vrije tijd hou ik van ${c.list}.`,
    (c) => `Ik geniet van ${c.list}.`,
    (c) => `Je maakt me blij met ${c.list}.`,
    (c) => `Mijn weekenden draaien om ${c.list}.`,
  ],
  traits: [
    "spontaan",
    "eerlijk",
    "zorgzaam",
    "avontuurlijk",
    "nuchter",
    "vrolijk",
    "nieuwsgierig",
    "romantisch",
    "sportief",
    "rustig",
    "sociaal",
    "creatief",
    "trouw",
    "positief",
    "gezellig",
  ],
  personality: [
    (c) => `Vrienden noemen mij ${c.t1} en ${c.t2}.`,
    (c) => `Ik ben ${c.t1}, ${c.t2} en ik hou van lachen.`,
    (c) => `Ik ben best ${c.t1}, maar soms ook heel ${c.t2}.`,
    (c) => `Mensen omschrijven mij als ${c.t1} en ${c.t2}.`,
  ],
  lookingFor: [
    "Ik zoek iemand om leuke gesprekken mee te voeren, en dan zien we wel wat er gebeurt.",
    "Op zoek naar iemand die me aan het lachen maakt en van een beetje avontuur houdt.",
    "Ik wil graag iemand leren kennen die echt is, zonder spelletjes.",
    "Zin in een leuke date, en wie weet wat er nog meer komt.",
    "Ik ben hier om nieuwe mensen te leren kennen.",
  ],
  closers: ["Stuur me gerust een berichtje!", "Nieuwsgierig? Zeg gewoon hoi.", "Tot snel!"],
  interestPhrases: {
    music: "muziek",
    travel: "reizen",
    cooking: "koken",
    baking: "bakken",
    hiking: "wandelen",
    cinema: "naar de film gaan",
    reading: "een goed boek",
    dancing: "dansen",
    fitness: "de sportschool",
    running: "hardlopen",
    cycling: "fietsen",
    swimming: "zwemmen",
    yoga: "yoga",
    photography: "fotografie",
    art: "kunst",
    theatre: "theater",
    concerts: "concerten",
    festivals: "festivals",
    wine: "een goed glas wijn",
    "dining-out": "uit eten gaan",
    coffee: "koffie",
    nature: "de natuur",
    beach: "het strand",
    camping: "kamperen",
    gardening: "tuinieren",
    animals: "dieren",
    dogs: "honden",
    cats: "katten",
    gaming: "gamen",
    technology: "technologie",
    fashion: "mode",
    shopping: "winkelen",
    football: "voetbal",
    tennis: "tennis",
    skiing: "skiën",
    sailing: "zeilen",
    motorcycles: "motoren",
    painting: "schilderen",
    "board-games": "bordspellen",
    museums: "musea",
    history: "geschiedenis",
    meditation: "meditatie",
  },
};

/** Every German template takes its interests in the accusative, so the phrases are written in it. */
const DE: Phrases = {
  and: "und",
  openers: [
    (c) =>
      `${c.country === "AT" ? "Servus" : c.country === "CH" ? "Grüezi" : "Hi"}, ich bin ${c.name}, ${c.age} Jahre alt und wohne in ${c.city}.`,
    (c) => `Hallo! ${c.name} hier, ${c.age}, aus ${c.city}.`,
    (c) => `Hey, ich heiße ${c.name} und bin ${c.age}.`,
    (c) => `Hallo zusammen! Ich bin ${c.name} (${c.age}) aus ${c.city}.`,
  ],
  interests: [
    (c) => `In meiner Freizeit liebe ich ${c.list}.`,
    (c) => `Ich begeistere mich für ${c.list}.`,
    (c) => `Was ich mag: ${c.list}.`,
    (c) => `Ich genieße ${c.list}.`,
  ],
  traits: [
    "spontan",
    "ehrlich",
    "fürsorglich",
    "abenteuerlustig",
    "bodenständig",
    "fröhlich",
    "neugierig",
    "romantisch",
    "sportlich",
    "ruhig",
    "gesellig",
    "kreativ",
    "treu",
    "humorvoll",
    "offen",
  ],
  personality: [
    (c) => `Freunde beschreiben mich als ${c.t1} und ${c.t2}.`,
    (c) => `Ich bin ${c.t1}, ${c.t2} und lache gern.`,
    (c) => `Ich bin eher ${c.t1}, kann aber auch ziemlich ${c.t2} sein.`,
  ],
  lookingFor: [
    "Ich suche jemanden für gute Gespräche und vielleicht ein Glas Wein.",
    "Ich suche jemanden, der mich zum Lachen bringt und Lust auf ein kleines Abenteuer hat.",
    "Ich würde gern jemanden kennenlernen, der ehrlich ist – ohne Spielchen.",
    "Lust auf nette Dates, und dann mal schauen, was sich ergibt.",
    "Ich bin hier, um neue Leute kennenzulernen.",
  ],
  closers: ["Schreib mir einfach!", "Neugierig? Dann sag hallo.", "Ich freue mich auf deine Nachricht."],
  interestPhrases: {
    music: "Musik",
    travel: "das Reisen",
    cooking: "das Kochen",
    baking: "das Backen",
    hiking: "das Wandern",
    cinema: "Kinoabende",
    reading: "ein gutes Buch",
    dancing: "das Tanzen",
    fitness: "das Fitnessstudio",
    running: "das Joggen",
    cycling: "das Radfahren",
    swimming: "das Schwimmen",
    yoga: "Yoga",
    photography: "Fotografie",
    art: "Kunst",
    theatre: "das Theater",
    concerts: "Konzerte",
    festivals: "Festivals",
    wine: "ein gutes Glas Wein",
    "dining-out": "gutes Essen im Restaurant",
    coffee: "Kaffee",
    nature: "die Natur",
    beach: "den Strand",
    camping: "Camping",
    gardening: "die Gartenarbeit",
    animals: "Tiere",
    dogs: "Hunde",
    cats: "Katzen",
    gaming: "Videospiele",
    technology: "Technik",
    fashion: "Mode",
    shopping: "Shopping",
    football: "Fußball",
    tennis: "Tennis",
    skiing: "das Skifahren",
    sailing: "das Segeln",
    motorcycles: "Motorräder",
    painting: "das Malen",
    "board-games": "Brettspiele",
    museums: "Museen",
    history: "Geschichte",
    meditation: "Meditation",
  },
};

const FR: Phrases = {
  and: "et",
  openers: [
    (c) => `Coucou, moi c'est ${c.name}, ${c.age} ans, et j'habite ${frIn(c.city)}.`,
    (c) => `Bonjour ! Je m'appelle ${c.name}, j'ai ${c.age} ans et je vis ${frIn(c.city)}.`,
    (c) => `Salut, je suis ${c.name}, ${c.age} ans.`,
  ],
  interests: [
    (c) => `Pendant mon temps libre, j'aime ${c.list}.`,
    (c) => `J'adore ${c.list}.`,
    (c) => `Mes passions : ${c.list}.`,
    (c) => `Ce qui me rend ${c.gender === "female" ? "heureuse" : "heureux"} : ${c.list}.`,
  ],
  traits: [
    ["spontané", "spontanée"],
    "honnête",
    ["attentionné", "attentionnée"],
    ["aventurier", "aventurière"],
    "drôle",
    ["joyeux", "joyeuse"],
    ["curieux", "curieuse"],
    "romantique",
    ["sportif", "sportive"],
    "calme",
    "sociable",
    ["créatif", "créative"],
    "fidèle",
    ["positif", "positive"],
    "simple",
  ],
  personality: [
    (c) => `Mes amis disent que je suis ${c.t1} et ${c.t2}.`,
    (c) => `Je suis ${c.t1}, ${c.t2} et j'aime rire.`,
    (c) => `Plutôt ${c.t1}, mais parfois très ${c.t2}.`,
  ],
  lookingFor: [
    "Je cherche quelqu'un pour partager de bonnes discussions et un verre de vin.",
    "Je cherche quelqu'un qui sait me faire rire et qui aime l'aventure.",
    "J'aimerais rencontrer quelqu'un de sincère, sans prise de tête.",
    "Envie de jolis rendez-vous, et plus si affinités.",
    "Je suis ici pour faire de nouvelles rencontres.",
  ],
  closers: ["Écris-moi !", "Envie de faire connaissance ? Envoie-moi un message.", "À bientôt !"],
  interestPhrases: {
    music: "la musique",
    travel: "les voyages",
    cooking: "la cuisine",
    baking: "la pâtisserie",
    hiking: "la randonnée",
    cinema: "le cinéma",
    reading: "les bons livres",
    dancing: "la danse",
    fitness: "la salle de sport",
    running: "la course à pied",
    cycling: "le vélo",
    swimming: "la natation",
    yoga: "le yoga",
    photography: "la photo",
    art: "l'art",
    theatre: "le théâtre",
    concerts: "les concerts",
    festivals: "les festivals",
    wine: "un bon verre de vin",
    "dining-out": "les bons restaurants",
    coffee: "le café",
    nature: "la nature",
    beach: "la plage",
    camping: "le camping",
    gardening: "le jardinage",
    animals: "les animaux",
    dogs: "les chiens",
    cats: "les chats",
    gaming: "les jeux vidéo",
    technology: "la technologie",
    fashion: "la mode",
    shopping: "le shopping",
    football: "le foot",
    tennis: "le tennis",
    skiing: "le ski",
    sailing: "la voile",
    motorcycles: "la moto",
    painting: "la peinture",
    "board-games": "les jeux de société",
    museums: "les musées",
    history: "l'histoire",
    meditation: "la méditation",
  },
};

const IT: Phrases = {
  and: "e",
  openers: [
    (c) => `Ciao, sono ${c.name}, ho ${c.age} anni e vivo a ${c.city}.`,
    (c) => `Ciao a tutti! ${c.name}, ${c.age} anni, di ${c.city}.`,
    (c) => `Salve! Mi chiamo ${c.name} e ho ${c.age} anni.`,
  ],
  interests: [
    (c) => `Nel tempo libero amo ${c.list}.`,
    (c) => `Adoro ${c.list}.`,
    (c) => `Le mie passioni? ${cap(c.list)}.`,
  ],
  traits: [
    ["spontaneo", "spontanea"],
    ["sincero", "sincera"],
    ["premuroso", "premurosa"],
    ["avventuroso", "avventurosa"],
    "solare",
    ["allegro", "allegra"],
    ["curioso", "curiosa"],
    ["romantico", "romantica"],
    ["sportivo", "sportiva"],
    ["tranquillo", "tranquilla"],
    "socievole",
    ["creativo", "creativa"],
    "fedele",
    ["positivo", "positiva"],
    "semplice",
  ],
  personality: [
    (c) => `Gli amici dicono che sono ${c.t1} e ${c.t2}.`,
    (c) => `Sono ${c.t1}, ${c.t2} e amo ridere.`,
    (c) => `Di solito sono ${c.t1}, ma a volte anche molto ${c.t2}.`,
  ],
  lookingFor: [
    "Cerco qualcuno con cui fare due chiacchiere davanti a un bicchiere di vino.",
    "Cerco qualcuno che sappia farmi ridere e che ami l'avventura.",
    "Mi piacerebbe conoscere una persona sincera, senza complicazioni.",
    "Voglia di appuntamenti piacevoli, poi si vedrà.",
    "Sono qui per conoscere gente nuova.",
  ],
  closers: ["Scrivimi!", "Ti va di conoscerci? Mandami un messaggio.", "A presto!"],
  interestPhrases: {
    music: "la musica",
    travel: "i viaggi",
    cooking: "la cucina",
    baking: "i dolci fatti in casa",
    hiking: "le escursioni",
    cinema: "il cinema",
    reading: "un buon libro",
    dancing: "il ballo",
    fitness: "la palestra",
    running: "la corsa",
    cycling: "la bici",
    swimming: "il nuoto",
    yoga: "lo yoga",
    photography: "la fotografia",
    art: "l'arte",
    theatre: "il teatro",
    concerts: "i concerti",
    festivals: "i festival",
    wine: "un buon bicchiere di vino",
    "dining-out": "le cene fuori",
    coffee: "il caffè",
    nature: "la natura",
    beach: "il mare",
    camping: "il campeggio",
    gardening: "il giardinaggio",
    animals: "gli animali",
    dogs: "i cani",
    cats: "i gatti",
    gaming: "i videogiochi",
    technology: "la tecnologia",
    fashion: "la moda",
    shopping: "lo shopping",
    football: "il calcio",
    tennis: "il tennis",
    skiing: "lo sci",
    sailing: "la vela",
    motorcycles: "le moto",
    painting: "la pittura",
    "board-games": "i giochi da tavolo",
    museums: "i musei",
    history: "la storia",
    meditation: "la meditazione",
  },
};

const ES: Phrases = {
  and: "y",
  openers: [
    (c) => `Hola, soy ${c.name}, tengo ${c.age} años y vivo en ${c.city}.`,
    (c) => `¡Hola a todos! ${c.name}, ${c.age} años, de ${c.city}.`,
    (c) => `¡Hola! Me llamo ${c.name} y tengo ${c.age} años.`,
  ],
  // Nominal lists only: "me encanta" would have to agree with each interest.
  interests: [
    (c) => `Mis pasiones: ${c.list}.`,
    (c) => `¿Mis aficiones? ${cap(c.list)}.`,
    (c) => `En mi tiempo libre: ${c.list}.`,
  ],
  traits: [
    ["espontáneo", "espontánea"],
    ["sincero", "sincera"],
    ["atento", "atenta"],
    ["aventurero", "aventurera"],
    "alegre",
    ["divertido", "divertida"],
    ["curioso", "curiosa"],
    ["romántico", "romántica"],
    "deportista",
    ["tranquilo", "tranquila"],
    "sociable",
    ["creativo", "creativa"],
    "fiel",
    ["positivo", "positiva"],
    ["sencillo", "sencilla"],
  ],
  personality: [
    (c) => `Mis amigos dicen que soy ${c.t1} y ${c.t2}.`,
    (c) => `Soy ${c.t1}, ${c.t2} y me encanta reír.`,
    (c) => `Normalmente soy ${c.t1}, pero a veces también muy ${c.t2}.`,
  ],
  lookingFor: [
    "Busco a alguien con quien charlar tomando una copa de vino.",
    "Busco a alguien que me haga reír y a quien le guste la aventura.",
    "Me gustaría conocer a una persona sincera, sin complicaciones.",
    "Con ganas de citas agradables, y luego ya veremos.",
    "Estoy aquí para conocer gente nueva.",
  ],
  closers: ["¡Escríbeme!", "¿Nos conocemos? Mándame un mensaje.", "¡Hasta pronto!"],
  interestPhrases: {
    music: "la música",
    travel: "los viajes",
    cooking: "la cocina",
    baking: "la repostería casera",
    hiking: "el senderismo",
    cinema: "el cine",
    reading: "un buen libro",
    dancing: "el baile",
    fitness: "el gimnasio",
    running: "correr",
    cycling: "la bici",
    swimming: "la natación",
    yoga: "el yoga",
    photography: "la fotografía",
    art: "el arte",
    theatre: "el teatro",
    concerts: "los conciertos",
    festivals: "los festivales",
    wine: "un buen vino",
    "dining-out": "las cenas fuera",
    coffee: "el café",
    nature: "la naturaleza",
    beach: "la playa",
    camping: "la acampada",
    gardening: "la jardinería",
    animals: "los animales",
    dogs: "los perros",
    cats: "los gatos",
    gaming: "los videojuegos",
    technology: "la tecnología",
    fashion: "la moda",
    shopping: "ir de compras",
    football: "el fútbol",
    tennis: "el tenis",
    skiing: "el esquí",
    sailing: "la vela",
    motorcycles: "las motos",
    painting: "la pintura",
    "board-games": "los juegos de mesa",
    museums: "los museos",
    history: "la historia",
    meditation: "la meditación",
  },
};

/** Finnish inflects town names; "paikkakunta" keeps them in the nominative, as people write it. */
const FI: Phrases = {
  and: "ja",
  openers: [
    (c) => `Moi, olen ${c.name}, ${c.age}, ja asun paikkakunnalla ${c.city}.`,
    (c) => `Hei kaikki! ${c.name} täällä, ${c.age} v., kotipaikkakunta ${c.city}.`,
    (c) => `Moikka! Nimeni on ${c.name} ja olen ${c.age}-vuotias.`,
  ],
  // "Rakastan" takes the partitive, as the phrases below are written.
  interests: [
    (c) => `Vapaa-ajallani rakastan ${c.list}.`,
    (c) => `Rakastan ${c.list}.`,
    (c) => `Eniten rakastan ${c.list}.`,
  ],
  traits: [
    "spontaani",
    "rehellinen",
    "huomaavainen",
    "seikkailunhaluinen",
    "aurinkoinen",
    "iloinen",
    "utelias",
    "romanttinen",
    "sporttinen",
    "rauhallinen",
    "sosiaalinen",
    "luova",
    "uskollinen",
    "positiivinen",
    "maanläheinen",
  ],
  personality: [
    (c) => `Ystävieni mukaan olen ${c.t1} ja ${c.t2}.`,
    (c) => `Olen ${c.t1}, ${c.t2} ja nauran paljon.`,
    (c) => `Yleensä olen ${c.t1}, mutta joskus myös tosi ${c.t2}.`,
  ],
  lookingFor: [
    "Etsin jotakuta, jonka kanssa jutella lasillisen ääressä.",
    "Etsin ihmistä, joka saa minut nauramaan ja rakastaa seikkailuja.",
    "Haluaisin tutustua rehelliseen ihmiseen ilman draamaa.",
    "Mukavia treffejä, katsotaan mihin se johtaa.",
    "Olen täällä tutustumassa uusiin ihmisiin.",
  ],
  closers: ["Laita viestiä!", "Tutustutaanko? Lähetä viesti.", "Nähdään!"],
  interestPhrases: {
    music: "musiikkia",
    travel: "matkustamista",
    cooking: "ruoanlaittoa",
    baking: "leipomista",
    hiking: "vaeltamista",
    cinema: "elokuvia",
    reading: "hyvää kirjaa",
    dancing: "tanssimista",
    fitness: "kuntosalia",
    running: "juoksemista",
    cycling: "pyöräilyä",
    swimming: "uintia",
    yoga: "joogaa",
    photography: "valokuvausta",
    art: "taidetta",
    theatre: "teatteria",
    concerts: "konsertteja",
    festivals: "festivaaleja",
    wine: "hyvää viiniä",
    "dining-out": "ravintolaillallisia",
    coffee: "kahvia",
    nature: "luontoa",
    beach: "rantaa",
    camping: "telttailua",
    gardening: "puutarhanhoitoa",
    animals: "eläimiä",
    dogs: "koiria",
    cats: "kissoja",
    gaming: "pelaamista",
    technology: "teknologiaa",
    fashion: "muotia",
    shopping: "shoppailua",
    football: "jalkapalloa",
    tennis: "tennistä",
    skiing: "laskettelua",
    sailing: "purjehdusta",
    motorcycles: "moottoripyöriä",
    painting: "maalaamista",
    "board-games": "lautapelejä",
    museums: "museoita",
    history: "historiaa",
    meditation: "meditaatiota",
  },
};

export const ABOUT_PHRASES: Readonly<Record<AboutLanguage, Phrases>> = {
  en: EN,
  nl: NL,
  de: DE,
  fr: FR,
  it: IT,
  es: ES,
  fi: FI,
};

export function isAboutLanguage(lang: string): lang is AboutLanguage {
  return (ABOUT_LANGUAGES as readonly string[]).includes(lang);
}

function joinList(items: readonly string[], and: string): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${and} ${items[items.length - 1]}`;
}

function trait(t: string | readonly [string, string], gender: Gender): string {
  return typeof t === "string" ? t : gender === "female" ? t[1] : t[0];
}

/** Two to five sentences: an opener, interests, personality, what they look for, a closing line. */
export function aboutMe(lang: AboutLanguage, facts: AboutFacts, rnd: Random): string {
  const p = ABOUT_PHRASES[lang];
  const mentioned = rnd.sample(facts.interests, rnd.int(2, 3)).map((slug) => p.interestPhrases[slug] ?? slug);
  const [a, b] = rnd.sample(p.traits, 2);
  const ctx: Ctx = {
    ...facts,
    list: joinList(mentioned, p.and),
    t1: trait(a ?? "", facts.gender),
    t2: trait(b ?? "", facts.gender),
  };
  const parts: string[] = [];
  if (rnd.chance(0.85)) parts.push(rnd.pick(p.openers)(ctx));
  if (mentioned.length > 0) parts.push(rnd.pick(p.interests)(ctx));
  if (rnd.chance(0.7)) parts.push(rnd.pick(p.personality)(ctx));
  parts.push(rnd.pick(p.lookingFor));
  if (rnd.chance(0.6)) parts.push(rnd.pick(p.closers));
  return parts.join(" ");
}
