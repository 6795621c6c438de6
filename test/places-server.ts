/**
 * The statements `npm run places -- load` runs for a country, served on loopback to the workerd
 * tests (they cannot read the gazetteer file themselves): GET /<country> answers them as a JSON
 * list. The gazetteer is read on the first request only, so other test files pay nothing.
 */
import { createServer } from "node:http";
import { countryPlacesSql, readGeoNames, type GeoNamesPlace } from "../scripts/demo/places";
import { PLACE_COUNTRIES, type PlaceCountry } from "../scripts/demo/regions";
import { answerJson, onLoopback } from "./stand-in-server";

export function createPlacesServer() {
  let gazetteer: GeoNamesPlace[] | undefined;
  const server = createServer((req, res) => {
    const country = (req.url ?? "").slice(1) as PlaceCountry;
    if (!PLACE_COUNTRIES.includes(country)) return answerJson(res, 404, { error: "unknown_country" });
    gazetteer ??= readGeoNames();
    answerJson(res, 200, countryPlacesSql(country, gazetteer));
  });
  return onLoopback(server);
}
