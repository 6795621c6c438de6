import { describe, expect, it } from "vitest";
import { closeMatchMoment, currentMatchMoment, showMatchMoment, subscribeMatchMoment } from "./match-moments";
import { initialsOf } from "../components/InitialsPortrait";

describe("the match moment's slot", () => {
  it("shows a match once though it is heard twice (the like's answer and the channel), and a new match after it", () => {
    let told = 0;
    const stop = subscribeMatchMoment(() => told++);
    const sanne = { id: 7, name: "Sanne", photo: "p/a.jpg" };
    showMatchMoment(sanne, 1_000);
    showMatchMoment(sanne, 1_500);
    expect(currentMatchMoment()).toEqual(sanne);
    expect(told).toBe(1);
    closeMatchMoment();
    expect(currentMatchMoment()).toBeNull();
    // The channel's frame arriving after the member closed the moment does not open it again.
    showMatchMoment(sanne, 2_000);
    expect(currentMatchMoment()).toBeNull();
    // Another member, or the same one much later (they unmatched and matched again), does.
    showMatchMoment({ id: 8, name: "Eva", photo: null }, 2_500);
    expect(currentMatchMoment()?.id).toBe(8);
    closeMatchMoment();
    showMatchMoment(sanne, 1_000 + 120_000);
    expect(currentMatchMoment()?.id).toBe(7);
    closeMatchMoment();
    stop();
    expect(told).toBe(6);
  });
});

describe("initials of a name", () => {
  it("take the first letter and the first of a second word or capital", () => {
    expect(initialsOf("SanneB")).toBe("SB");
    expect(initialsOf("anna")).toBe("A");
    expect(initialsOf("jan de vries")).toBe("JD");
    expect(initialsOf("émile_92")).toBe("É9");
    expect(initialsOf("  ")).toBe("?");
  });
});
