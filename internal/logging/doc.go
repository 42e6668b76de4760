// Package logging is Terrane's leveled log. TERRANE_LOG chooses the level
// (trace, debug, info, warn, error or off, the default) and TERRANE_LOG_PATH
// a file to append to instead of stderr; every subsystem gets a named logger
// from the same root. It also derives the log variables provider processes
// are launched with, so that providers log exactly as much as Terrane keeps.
package logging
