/**
 * The console's screens, in the order of its navigation. A new screen is a module under screens/
 * exporting a ConsoleScreen, and one line here (docs/decisions/0034).
 */
import type { ConsoleScreen } from "./console-context";
import { appealQueueScreen } from "./screens/appeal-queue-screen";
import { auditLogScreen } from "./screens/audit-log-screen";
import { dashboardScreen } from "./screens/dashboard-screen";
import { discountsScreen } from "./screens/discounts-screen";
import { membersScreen } from "./screens/members-screen";
import { ordersScreen } from "./screens/orders-screen";
import { sitesScreen } from "./screens/sites-screen";
import { supportQuestionsScreen } from "./screens/support-questions-screen";
import { transparencyScreen } from "./screens/transparency-screen";
import { operatorsScreen } from "./screens/operators-screen";
import { photoQueueScreen } from "./screens/photo-queue-screen";
import { reportQueueScreen } from "./screens/report-queue-screen";
import { requestsScreen } from "./screens/requests-screen";
import { verificationsScreen } from "./screens/verifications-screen";

export const CONSOLE_SCREENS: readonly ConsoleScreen[] = [
  dashboardScreen,
  transparencyScreen,
  requestsScreen,
  photoQueueScreen,
  reportQueueScreen,
  verificationsScreen,
  appealQueueScreen,
  membersScreen,
  supportQuestionsScreen,
  ordersScreen,
  discountsScreen,
  sitesScreen,
  auditLogScreen,
  operatorsScreen,
];
