package adr

import "strings"

// ShellWord quotes s for a POSIX shell when it needs quoting, for the
// commands that hints print.
func ShellWord(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n\"'`$\\|&;<>()*?[]#~!{}") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
