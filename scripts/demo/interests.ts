/** The interests a profile can pick, with their names in all 11 content languages. */
import type { Language } from "../../src/shared/locales";

export interface Interest {
  /** Row id in the interests table: the position in INTERESTS plus one. */
  id: number;
  slug: string;
  names: Readonly<Record<Language, string>>;
}

// Columns: slug, then da de en es fi fr it nb nl pl sv (the order of LANGUAGES).
const TABLE: readonly (readonly [string, ...string[]])[] = [
  ["music", "Musik", "Musik", "Music", "Música", "Musiikki", "Musique", "Musica", "Musikk", "Muziek", "Muzyka", "Musik"],
  ["travel", "Rejser", "Reisen", "Travel", "Viajar", "Matkustaminen", "Voyages", "Viaggi", "Reising", "Reizen", "Podróże", "Resor"],
  ["cooking", "Madlavning", "Kochen", "Cooking", "Cocina", "Ruoanlaitto", "Cuisine", "Cucina", "Matlaging", "Koken", "Gotowanie", "Matlagning"],
  ["baking", "Bagning", "Backen", "Baking", "Repostería", "Leivonta", "Pâtisserie", "Pasticceria", "Baking", "Bakken", "Pieczenie", "Bakning"],
  ["hiking", "Vandring", "Wandern", "Hiking", "Senderismo", "Vaellus", "Randonnée", "Escursionismo", "Fotturer", "Wandelen", "Wędrówki", "Vandring"],
  ["cinema", "Film", "Kino", "Cinema", "Cine", "Elokuvat", "Cinéma", "Cinema", "Film", "Film", "Kino", "Film"],
  ["reading", "Læsning", "Lesen", "Reading", "Lectura", "Lukeminen", "Lecture", "Lettura", "Lesing", "Lezen", "Czytanie", "Läsning"],
  ["dancing", "Dans", "Tanzen", "Dancing", "Baile", "Tanssi", "Danse", "Ballo", "Dans", "Dansen", "Taniec", "Dans"],
  ["fitness", "Fitness", "Fitness", "Fitness", "Gimnasio", "Kuntosali", "Musculation", "Palestra", "Trening", "Fitness", "Siłownia", "Träning"],
  ["running", "Løb", "Laufen", "Running", "Correr", "Juoksu", "Course à pied", "Corsa", "Løping", "Hardlopen", "Bieganie", "Löpning"],
  ["cycling", "Cykling", "Radfahren", "Cycling", "Ciclismo", "Pyöräily", "Vélo", "Ciclismo", "Sykling", "Fietsen", "Jazda na rowerze", "Cykling"],
  ["swimming", "Svømning", "Schwimmen", "Swimming", "Natación", "Uinti", "Natation", "Nuoto", "Svømming", "Zwemmen", "Pływanie", "Simning"],
  ["yoga", "Yoga", "Yoga", "Yoga", "Yoga", "Jooga", "Yoga", "Yoga", "Yoga", "Yoga", "Joga", "Yoga"],
  ["photography", "Fotografi", "Fotografie", "Photography", "Fotografía", "Valokuvaus", "Photographie", "Fotografia", "Fotografering", "Fotografie", "Fotografia", "Fotografering"],
  ["art", "Kunst", "Kunst", "Art", "Arte", "Taide", "Art", "Arte", "Kunst", "Kunst", "Sztuka", "Konst"],
  ["theatre", "Teater", "Theater", "Theatre", "Teatro", "Teatteri", "Théâtre", "Teatro", "Teater", "Theater", "Teatr", "Teater"],
  ["concerts", "Koncerter", "Konzerte", "Concerts", "Conciertos", "Konsertit", "Concerts", "Concerti", "Konserter", "Concerten", "Koncerty", "Konserter"],
  ["festivals", "Festivaler", "Festivals", "Festivals", "Festivales", "Festivaalit", "Festivals", "Festival", "Festivaler", "Festivals", "Festiwale", "Festivaler"],
  ["wine", "Vin", "Wein", "Wine", "Vino", "Viini", "Vin", "Vino", "Vin", "Wijn", "Wino", "Vin"],
  ["dining-out", "Gå ud at spise", "Essen gehen", "Dining out", "Salir a cenar", "Ulkona syöminen", "Restaurants", "Cene fuori", "Spise ute", "Uit eten", "Jedzenie na mieście", "Äta ute"],
  ["coffee", "Kaffe", "Kaffee", "Coffee", "Café", "Kahvi", "Café", "Caffè", "Kaffe", "Koffie", "Kawa", "Kaffe"],
  ["nature", "Natur", "Natur", "Nature", "Naturaleza", "Luonto", "Nature", "Natura", "Natur", "Natuur", "Przyroda", "Natur"],
  ["beach", "Strand", "Strand", "Beach", "Playa", "Ranta", "Plage", "Spiaggia", "Strand", "Strand", "Plaża", "Strand"],
  ["camping", "Camping", "Camping", "Camping", "Acampada", "Telttailu", "Camping", "Campeggio", "Telting", "Kamperen", "Biwakowanie", "Tältning"],
  ["gardening", "Havearbejde", "Gärtnern", "Gardening", "Jardinería", "Puutarhanhoito", "Jardinage", "Giardinaggio", "Hagearbeid", "Tuinieren", "Ogrodnictwo", "Trädgårdsarbete"],
  ["animals", "Dyr", "Tiere", "Animals", "Animales", "Eläimet", "Animaux", "Animali", "Dyr", "Dieren", "Zwierzęta", "Djur"],
  ["dogs", "Hunde", "Hunde", "Dogs", "Perros", "Koirat", "Chiens", "Cani", "Hunder", "Honden", "Psy", "Hundar"],
  ["cats", "Katte", "Katzen", "Cats", "Gatos", "Kissat", "Chats", "Gatti", "Katter", "Katten", "Koty", "Katter"],
  ["gaming", "Computerspil", "Videospiele", "Gaming", "Videojuegos", "Videopelit", "Jeux vidéo", "Videogiochi", "Dataspill", "Gamen", "Gry komputerowe", "Datorspel"],
  ["technology", "Teknologi", "Technik", "Technology", "Tecnología", "Teknologia", "Technologie", "Tecnologia", "Teknologi", "Technologie", "Technologia", "Teknik"],
  ["fashion", "Mode", "Mode", "Fashion", "Moda", "Muoti", "Mode", "Moda", "Mote", "Mode", "Moda", "Mode"],
  ["shopping", "Shopping", "Shopping", "Shopping", "Ir de compras", "Shoppailu", "Shopping", "Shopping", "Shopping", "Winkelen", "Zakupy", "Shopping"],
  ["football", "Fodbold", "Fußball", "Football", "Fútbol", "Jalkapallo", "Football", "Calcio", "Fotball", "Voetbal", "Piłka nożna", "Fotboll"],
  ["tennis", "Tennis", "Tennis", "Tennis", "Tenis", "Tennis", "Tennis", "Tennis", "Tennis", "Tennis", "Tenis", "Tennis"],
  ["skiing", "Skiløb", "Skifahren", "Skiing", "Esquí", "Laskettelu", "Ski", "Sci", "Ski", "Skiën", "Narciarstwo", "Skidåkning"],
  ["sailing", "Sejlads", "Segeln", "Sailing", "Vela", "Purjehdus", "Voile", "Vela", "Seiling", "Zeilen", "Żeglarstwo", "Segling"],
  ["motorcycles", "Motorcykler", "Motorräder", "Motorcycles", "Motos", "Moottoripyörät", "Moto", "Moto", "Motorsykler", "Motoren", "Motocykle", "Motorcyklar"],
  ["painting", "Maleri", "Malen", "Painting", "Pintura", "Maalaus", "Peinture", "Pittura", "Maling", "Schilderen", "Malarstwo", "Målning"],
  ["board-games", "Brætspil", "Brettspiele", "Board games", "Juegos de mesa", "Lautapelit", "Jeux de société", "Giochi da tavolo", "Brettspill", "Bordspellen", "Gry planszowe", "Brädspel"],
  ["museums", "Museer", "Museen", "Museums", "Museos", "Museot", "Musées", "Musei", "Museer", "Musea", "Muzea", "Museer"],
  ["history", "Historie", "Geschichte", "History", "Historia", "Historia", "Histoire", "Storia", "Historie", "Geschiedenis", "Historia", "Historia"],
  ["meditation", "Meditation", "Meditation", "Meditation", "Meditación", "Meditaatio", "Méditation", "Meditazione", "Meditasjon", "Meditatie", "Medytacja", "Meditation"],
];

const ORDER: readonly Language[] = ["da", "de", "en", "es", "fi", "fr", "it", "nb", "nl", "pl", "sv"];

export const INTERESTS: readonly Interest[] = TABLE.map(([slug, ...names], i) => {
  if (names.length !== ORDER.length) throw new Error(`interest ${slug}: ${names.length} names`);
  return {
    id: i + 1,
    slug,
    names: Object.fromEntries(ORDER.map((lang, j) => [lang, names[j] as string])) as Record<Language, string>,
  };
});

export const INTERESTS_BY_SLUG: ReadonlyMap<string, Interest> = new Map(INTERESTS.map((i) => [i.slug, i]));
