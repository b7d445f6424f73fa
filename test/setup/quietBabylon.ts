/** Keeps Babylon's informational logs (engine banners) out of the test output; warnings and errors still show. */
import { Logger } from "@babylonjs/core/Misc/logger.js";

Logger.LogLevels = Logger.WarningLogLevel | Logger.ErrorLogLevel;
