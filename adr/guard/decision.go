package guard

import (
	"fmt"
	"sort"
	"strings"

	"github.com/git-adr/git-adr/adr"
)

// Verdict is what the agent is told to do with the call.
type Verdict string

// Verdicts.
const (
	// Allow lets the call run (Notes may still be attached).
	Allow Verdict = "allow"
	// Warned lets the call run with guidance (warn mode).
	Warned Verdict = "warn"
	// Deny refuses the call before it runs (guard mode).
	Deny Verdict = "deny"
)

// Rule names why a call was judged.
type Rule string

// Rules.
const (
	// RuleArchived: a direct read of an archived record's body.
	RuleArchived Rule = "archived-read"
	// RuleUnscoped: one call reads or searches the content of many
	// records of an ADR root at once.
	RuleUnscoped Rule = "unscoped-read"
	// RulePerson: a command only a person may run (accepting, changing
	// the guard, granting trust).
	RulePerson Rule = "person-only"
	// RuleConfig: a write to the guard's own configuration.
	RuleConfig Rule = "guard-config"
	// RuleDegraded: the guard cannot tell what is protected.
	RuleDegraded Rule = "degraded"
	// RuleUnparsed: a shell command the parser cannot read names the log.
	RuleUnparsed Rule = "unparsed-command"
)

// Finding is one rule a call breaks.
type Finding struct {
	Rule Rule
	// Paths are the repository-relative paths concerned (a few).
	Paths []string
	// Count is how many records the call reaches (unscoped reads).
	Count, Archived int
	Root            *adr.Root
	Records         []*adr.Record
	// Via is the command or tool as written ("grep -r", "Read").
	Via string
	// Command is a person-only command as written.
	Command string
	// What the person-only command does ("accepts decisions").
	What string
	// Err is why the guard is degraded.
	Err error
	// Shell: the write is a shell command's (RuleConfig).
	Shell bool
}

// Decision is the guard's answer to one tool call.
type Decision struct {
	Verdict Verdict
	Mode    Mode
	// Findings are the rules the call breaks (empty when allowed).
	Findings []Finding
	// Reason is the message for the agent: why the call is refused (or
	// would be, in warn mode) and what to do instead.
	Reason string
	// Notes are notices attached to a call that runs: a repeated read of
	// an unchanged record, warn-mode guidance.
	Notes []string
	// Narrowed is, for a refused search that only reached the ADR roots,
	// the same search without them, which the guard allows: an adapter
	// whose agent can change a call's input runs it instead (nil: none).
	Narrowed *Request
}

// Message returns everything the agent should read: the reason and the
// notes.
func (d Decision) Message() string {
	parts := []string{}
	if d.Reason != "" {
		parts = append(parts, d.Reason)
	}
	parts = append(parts, d.Notes...)
	return strings.Join(parts, "\n")
}

// key identifies a finding for deduplication in a session.
func (f Finding) key() string {
	ps := append([]string(nil), f.Paths...)
	sort.Strings(ps)
	k := string(f.Rule) + "\x00" + strings.Join(ps, "\x00") + "\x00" + f.Command
	if f.Err != nil {
		k += "\x00" + f.Err.Error()
	}
	return k
}

// quote shows a command or path in backquotes, as the agent would type it.
func quote(s string) string { return "`" + s + "`" }

// listPaths names at most three paths and says how many more.
func listPaths(ps []string) string {
	if len(ps) <= 3 {
		return strings.Join(ps, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(ps[:3], ", "), len(ps)-3)
}

// text is the finding explained, with the alternative.
func (f Finding) text(log *adr.Log) string {
	switch f.Rule {
	case RuleArchived:
		var b strings.Builder
		b.WriteString(subject(f.Via, "reads"))
		fmt.Fprintf(&b, " %s, ", listPaths(f.Paths))
		var alts []string
		for _, r := range f.Records {
			if log != nil {
				log.Ensure(r)
			}
			alts = append(alts, quote("git adr context "+r.ID+" --history"))
			for _, rel := range r.Relations {
				if rel.Type == adr.SupersededBy && rel.TargetID != "" {
					alts = append(alts, "the decision in force: "+quote("git adr context "+rel.TargetID))
				}
			}
		}
		if len(f.Paths) == 1 {
			b.WriteString("an archived record")
			if len(f.Records) == 1 {
				fmt.Fprintf(&b, " (%s, %s)", f.Records[0].ID, f.Records[0].Status)
			}
		} else {
			b.WriteString("archived records")
		}
		b.WriteString(": archived bodies are history, not decisions in force, and are not read directly. Instead use ")
		if len(alts) == 0 {
			alts = append(alts, quote("git adr context --task \"what you are doing\""))
		}
		b.WriteString(strings.Join(uniq(alts), ", or "))
		b.WriteString(" (bounded).")
		return b.String()
	case RuleUnscoped:
		dir := "an ADR root"
		if f.Root != nil {
			dir = f.Root.Dir()
		}
		what := fmt.Sprintf("%d records of %s", f.Count, dir)
		if f.Archived > 0 {
			what += fmt.Sprintf(" (%d archived)", f.Archived)
		}
		return fmt.Sprintf("%s the content of %s at once: reading or searching a whole decision log floods the context with history. "+
			"Instead use %s (the decisions that matter, bounded), %s for the titles, read one record by path or ID (%s), "+
			"or, to search source code, name a narrower path or a filter that leaves %s out (for example %s or %s).",
			subject(f.Via, "reads"), what, quote("git adr context --task \"what you are doing\""), quote("git adr list"), quote("git adr context ADR-ID"), dir,
			quote("grep -rn PATTERN src/"), quote("rg PATTERN -g '!"+dir+"'"))
	case RulePerson:
		return fmt.Sprintf("%s %s: only a person does that, in their own terminal, never an agent. "+
			"Say what you propose and ask the person to run it.", quote(f.Command), f.What)
	case RuleConfig:
		if f.Shell {
			return fmt.Sprintf("%s %s, which holds the read guard's configuration: the guard refuses shell writes to it. "+
				"Change other settings with your file-editing tool; a person changes the guard with %s or %s in their own terminal.",
				subject(f.Via, "writes"), listPaths(f.Paths), quote("git adr config guard MODE"), quote("git adr guard uninstall --agent AGENT"))
		}
		return fmt.Sprintf("%s the read guard's own configuration in %s: an agent does not. "+
			"A person changes the guard with %s or %s in their own terminal.",
			subject(f.Via, "changes"), listPaths(f.Paths), quote("git adr config guard MODE"), quote("git adr guard uninstall --agent AGENT"))
	case RuleDegraded:
		return fmt.Sprintf("the guard cannot tell which files are protected: %v. Reads and searches are refused until a person fixes that (%s shows the problem); listing files, %s and git-adr's MCP tools still work.",
			f.Err, quote("git adr check"), quote("git adr context"))
	case RuleUnparsed:
		return fmt.Sprintf("this shell command names the decision log but could not be parsed (%v), so the guard cannot tell what it reads. Run a simpler command, or use %s.",
			f.Err, quote("git adr context --task \"what you are doing\""))
	}
	return string(f.Rule)
}

// subject is what the call is called in a message: the command as
// written, or "this call".
func subject(via, verb string) string {
	if via == "" {
		return "this call " + verb
	}
	if len(via) > 120 {
		via = via[:117] + "..."
	}
	return quote(via) + " " + verb
}

func uniq(ss []string) []string {
	seen := map[string]bool{}
	out := ss[:0]
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
