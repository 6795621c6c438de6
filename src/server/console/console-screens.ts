/**
 * The console's screens, in the order of its navigation. A new screen is a module under screens/
 * exporting a ConsoleScreen, and one line here (docs/decisions/0034).
 */
import type { ConsoleScreen } from "./console-context";
import { auditLogScreen } from "./screens/audit-log-screen";
import { operatorsScreen } from "./screens/operators-screen";
import { verificationsScreen } from "./screens/verifications-screen";

export const CONSOLE_SCREENS: readonly ConsoleScreen[] = [verificationsScreen, auditLogScreen, operatorsScreen];
