package hooks

import (
	"fmt"
	"strings"

	"github.com/git-adr/git-adr/gitops"
)

// Snippet is what to add to a hook manager's configuration so that it runs
// git-adr's hooks, for the named hooks.
func Snippet(m *gitops.HookManager, names []string) string {
	var b strings.Builder
	switch m.Name {
	case "husky":
		for _, n := range names {
			fmt.Fprintf(&b, "# .husky/%s\n%s\n", n, hookCall(n))
		}
	case "lefthook":
		// lefthook passes a command neither git's arguments (only as
		// {1}, {2}) nor its standard input (only with use_stdin), and
		// pre-push needs both: the remote, and the refs pushed.
		if m.Config != "" {
			fmt.Fprintf(&b, "# %s\n", m.Config)
		}
		for _, n := range names {
			fmt.Fprintf(&b, "%s:\n  commands:\n    git-adr:\n      run: %s\n", n, lefthookCall(n))
			if n == "pre-push" || n == "pre-receive" {
				b.WriteString("      use_stdin: true\n")
			}
		}
	case "pre-commit":
		b.WriteString("# .pre-commit-config.yaml\nrepos:\n  - repo: https://github.com/git-adr/git-adr\n    rev: <version>\n    hooks:\n")
		for _, n := range names {
			fmt.Fprintf(&b, "      - id: git-adr-%s\n", n)
		}
		b.WriteString("# stages: install them with `pre-commit install")
		for _, n := range names {
			fmt.Fprintf(&b, " --hook-type %s", n)
		}
		b.WriteString("`\n")
	default:
		for _, n := range names {
			fmt.Fprintf(&b, "# add to the %s hook in that directory\n%s\n", n, hookCall(n))
		}
	}
	return b.String()
}

func lefthookCall(name string) string {
	switch name {
	case "pre-push":
		return "git adr hook pre-push {1} {2}"
	case "commit-msg":
		return "git adr hook commit-msg {1}"
	}
	return "git adr hook " + name
}

func hookCall(name string) string {
	switch name {
	case "pre-push", "commit-msg":
		return "git adr hook " + name + ` "$@"`
	}
	return "git adr hook " + name
}
