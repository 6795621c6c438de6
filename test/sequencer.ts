import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The fuzz of every /api route (test/integration/api-fuzz.test.ts) is the suite's longest file by
 * far (two to three minutes): it starts first, so the other files fill the other workers around it
 * instead of leaving it alone at the end. Vitest puts the longest first only when it has timed an
 * earlier run, which a fresh clone (CI) has not; by size it would come late.
 */
const STARTS_FIRST = /\/test\/integration\/api-fuzz\.test\.ts$/;

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Vitest's own order (BaseSequencer.sort, which copies the list), not Array#sort.
    // oxlint-disable-next-line unicorn/no-array-sort
    const sorted = await super.sort(files);
    return [
      ...sorted.filter((file) => STARTS_FIRST.test(file.moduleId)),
      ...sorted.filter((file) => !STARTS_FIRST.test(file.moduleId)),
    ];
  }
}
