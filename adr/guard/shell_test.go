package guard

import (
	"strings"
	"testing"
)

// shellCase is a command and what the guard, in guard mode, decides.
type shellCase struct {
	cmd  string
	want Verdict
	rule Rule // the first finding's rule when denied
	// known marks a verdict that is not what a person would want, and
	// says why: a refusal of a harmless call ("wrongly refused: ...") or
	// a call that runs although it reads the log ("passes: ..."). They
	// are published in docs/guard.md (TestGuardTableIsPublished).
	known string
}

const arch = "doc/adr/archive/0002-use-postgresql.md"

var shellCases = []shellCase{
	// Direct reads of the archived record, however written.
	{"cat " + arch, Deny, RuleArchived, ""},
	{"cat ./" + arch, Deny, RuleArchived, ""},
	{"cat TOP/" + arch, Deny, RuleArchived, ""},
	{"cat 'doc/adr/archive/0002-use-postgresql.md'", Deny, RuleArchived, ""},
	{`cat "doc/adr/"archive/0002-use-postgresql.md`, Deny, RuleArchived, ""},
	{`cat doc/ad\r/archive/0002-use-postgresql.md`, Deny, RuleArchived, ""},
	{"cat doc/../doc/adr/./archive/0002-use-postgresql.md", Deny, RuleArchived, ""},
	{"cd doc/adr && cat archive/0002-use-postgresql.md", Deny, RuleArchived, ""},
	{"cd doc; cat adr/archive/0002-use-postgresql.md", Deny, RuleArchived, ""},
	{"cat old-decisions/0002-use-postgresql.md", Deny, RuleArchived, ""},
	{"head -n 5 " + arch, Deny, RuleArchived, ""},
	{"tail -20 " + arch, Deny, RuleArchived, ""},
	{"less " + arch, Deny, RuleArchived, ""},
	{"more " + arch, Deny, RuleArchived, ""},
	{"sed -n 1,20p " + arch, Deny, RuleArchived, ""},
	{"awk '{print}' " + arch, Deny, RuleArchived, ""},
	{"cat doc/adr/archive/0002*", Deny, RuleArchived, ""},
	{"cat < " + arch, Deny, RuleArchived, ""},
	{"echo start; cat " + arch + " | head -3", Deny, RuleArchived, ""},
	{"true && cat " + arch + " || echo no", Deny, RuleArchived, ""},
	{"bash -c 'cat " + arch + "'", Deny, RuleArchived, ""},
	{"sh -c \"head -5 " + arch + "\"", Deny, RuleArchived, ""},
	{"f=" + arch + "; cat $f", Deny, RuleArchived, ""},
	{"f=" + arch + "; cat \"${f}\"", Deny, RuleArchived, ""},
	{"echo $(cat " + arch + ")", Deny, RuleArchived, ""},
	{"git show HEAD:" + arch, Deny, RuleArchived, ""},
	{"git cat-file -p main:" + arch, Deny, RuleArchived, ""},
	{"python3 -c \"print(open('" + arch + "').read())\"", Deny, RuleArchived, ""},
	{"node -e \"console.log(require('fs').readFileSync('" + arch + "','utf8'))\"", Deny, RuleArchived, ""},
	{"sudo cat " + arch, Deny, RuleArchived, ""},
	{"env LANG=C cat " + arch, Deny, RuleArchived, ""},
	{"timeout 5 cat " + arch, Deny, RuleArchived, ""},
	{"grep -n Postgre " + arch, Deny, RuleArchived, ""},
	{"xargs cat <<< " + arch, Deny, RuleArchived, ""},
	{"git show v1:doc/adr/0002-use-postgresql.md", Deny, RuleArchived, ""},
	{"git show v1:docs/decisions/0002-use-postgresql.md", Deny, RuleArchived, ""},
	{"git cat-file -p v1:doc/adr/0002-use-postgresql.md", Deny, RuleArchived, ""},
	{"bash <<'EOF'\ncat " + arch + "\nEOF", Deny, RuleArchived, ""},
	{"sh <<EOF\nhead -5 " + arch + "\nEOF", Deny, RuleArchived, ""},
	{"python3 - <<'EOF'\nprint(open('" + arch + "').read())\nEOF", Deny, RuleArchived, ""},
	{"python3 <<'EOF'\nimport sys\nsys.stdout.write(open('" + arch + "').read())\nEOF", Deny, RuleArchived, ""},
	{"node <<'EOF'\nconsole.log(require('fs').readFileSync('" + arch + "', 'utf8'))\nEOF", Deny, RuleArchived, ""},
	{"cat <<'EOF' | bash\ncat " + arch + "\nEOF", Deny, RuleArchived, ""},
	{"bash -s <<< 'cat " + arch + "'", Deny, RuleArchived, ""},
	{"echo 'cat " + arch + "' | sh", Deny, RuleArchived, ""},
	{"while read f; do cat \"$f\"; done <<EOF\n" + arch + "\nEOF", Deny, RuleArchived, ""},
	{"cp " + arch + " /dev/stdout", Deny, RuleArchived, ""},
	{"cp " + arch + " /dev/fd/1", Deny, RuleArchived, ""},
	{"install -m 644 " + arch + " /dev/stderr", Deny, RuleArchived, ""},
	{"dd if=" + arch, Deny, RuleArchived, ""},
	{"dd if=" + arch + " of=/dev/stdout status=none", Deny, RuleArchived, ""},
	{"cp " + arch + " /tmp/x.md && cat /tmp/x.md", Deny, RuleArchived, ""},
	{"cp " + arch + " /tmp/ && cat /tmp/0002-use-postgresql.md", Deny, RuleArchived, ""},
	{"mv " + arch + " /tmp/y.md; head /tmp/y.md", Deny, RuleArchived, ""},
	{"ln -s $PWD/" + arch + " /tmp/l.md && cat /tmp/l.md", Deny, RuleArchived, ""},
	{"dd if=" + arch + " of=/tmp/z.md; cat /tmp/z.md", Deny, RuleArchived, ""},
	{"cmp " + arch + " /tmp/other.md", Deny, RuleArchived, "wrongly refused: cmp prints where two files differ, not their content, but it is judged as a reader"},
	{"cp " + arch + " /tmp/x.md", Allow, "", "passes: a copy outside the archive is not an archived record; a later call that reads /tmp/x.md reads it"},
	{"cat \"$RECORD\"", Allow, "", "passes: a variable the command did not assign is unknown"},
	{"cat $(cat list.txt)", Allow, "", "passes: the content of list.txt is not read by the guard"},
	{"bash show.sh", Allow, "", "passes: the guard does not read the scripts a command runs"},
	{"python3 -c \"import glob;[print(open(f).read()) for f in glob.glob('doc/adr/arch'+'ive/*')]\"", Allow, "", "passes: only paths written whole in inline code are judged"},
	{"git log -p -- doc/adr/archive", Allow, "", "passes: git history other than git show REV:PATH, git cat-file and git grep is not judged"},
	{"git stash show -p", Allow, "", "passes: git history other than git show REV:PATH, git cat-file and git grep is not judged"},
	{"git reset --hard v1", Allow, "", "passes: a command that moves the whole work tree (reset, switch, stash, merge) can put back an .adr.toml without the guard mode; only restores that name paths are judged"},
	{"perl script.pl", Allow, "", "passes: programs outside the recogniser's lists are not judged"},

	// Unscoped reads and searches of the root.
	{"grep -r Postgre doc/adr", Deny, RuleUnscoped, ""},
	{"grep -rn foo .", Deny, RuleUnscoped, "wrongly refused: when meant for the code, grep -r is not narrowed (it leaves folders out only by name); the refusal suggests a narrower path or rg with a glob"},
	{"grep -R foo", Deny, RuleUnscoped, "wrongly refused: when meant for the code, grep -r is not narrowed (it leaves folders out only by name); the refusal suggests a narrower path or rg with a glob"},
	{"grep --recursive foo doc", Deny, RuleUnscoped, ""},
	{"rg Postgre", Deny, RuleUnscoped, "wrongly refused: when meant for the code, Claude Code runs it narrowed instead (`rg Postgre -g '!/doc/adr'`); other agents are refused and told that command"},
	{"rg -i foo doc", Deny, RuleUnscoped, ""},
	{"rg foo -g '*.md'", Deny, RuleUnscoped, ""},
	{"ag foo", Deny, RuleUnscoped, ""},
	{"ack foo doc/adr", Deny, RuleUnscoped, ""},
	{"git grep foo", Deny, RuleUnscoped, "wrongly refused: when meant for the code, Claude Code runs it narrowed instead (`git grep foo -- . ':!doc/adr'`); other agents are refused and told that command"},
	{"git grep -n foo -- doc/adr", Deny, RuleUnscoped, ""},
	{"cat doc/adr/*.md", Deny, RuleUnscoped, ""},
	{"head -3 doc/adr/*", Deny, RuleUnscoped, ""},
	{"cd doc/adr && cat *.md", Deny, RuleUnscoped, ""},
	{"for f in doc/adr/*.md; do cat \"$f\"; done", Deny, RuleUnscoped, ""},
	{"for f in $(ls doc/adr); do head -1 doc/adr/$f; done", Deny, RuleUnscoped, ""},
	{"find doc/adr -name '*.md' -exec cat {} \\;", Deny, RuleUnscoped, ""},
	{"find . -type f -exec grep -H foo {} +", Deny, RuleUnscoped, ""},
	{"find doc/adr -type f | xargs cat", Deny, RuleUnscoped, ""},
	{"find doc/adr -name '*.md' -print0 | xargs -0 grep foo", Deny, RuleUnscoped, ""},
	{"ls doc/adr/*.md | xargs -I{} cat {}", Deny, RuleUnscoped, ""},
	{"cat $(find doc/adr -name '*.md')", Deny, RuleUnscoped, ""},
	{"while read f; do cat \"$f\"; done < <(find doc/adr -type f)", Deny, RuleUnscoped, ""},
	{"find doc/adr -type f | while read -r f; do head -1 \"$f\"; done", Deny, RuleUnscoped, ""},
	{"rg --files doc/adr | xargs cat", Deny, RuleUnscoped, ""},
	{"git ls-files doc/adr | xargs cat", Deny, RuleUnscoped, ""},
	{"diff -r doc/adr /tmp", Deny, RuleUnscoped, ""},
	{"fd . doc/adr -x cat", Deny, RuleUnscoped, ""},
	{"cat doc/adr/0001-record-architecture-decisions.md doc/adr/0003-serve-mcp.md doc/adr/0004-use-sqlite.md doc/adr/0005-log-as-json.md", Deny, RuleUnscoped, ""},
	{"find doc/adr -exec sh -c 'cat \"$1\"' _ {} \\;", Deny, RuleUnscoped, ""},
	{"d=doc/adr; grep -r foo $d", Deny, RuleUnscoped, ""},

	// Allowed: targeted live reads, listings, source searches.
	{"cat doc/adr/0001-record-architecture-decisions.md", Allow, "", ""},
	{"cat doc/adr/{0001-record-architecture-decisions,0003-serve-mcp}.md", Allow, "", ""},
	{"head -20 doc/adr/0003-serve-mcp.md && grep -n MCP doc/adr/0003-serve-mcp.md", Allow, "", ""},
	{"cat doc/adr/INDEX.md", Allow, "", ""},
	{"grep -r foo doc/adr/0003-serve-mcp.md", Allow, "", ""},
	{"grep -rn foo src/", Allow, "", ""},
	{"grep -r --include='*.go' foo .", Allow, "", ""},
	{"grep -r --exclude-dir=adr foo .", Allow, "", ""},
	{"grep -r --exclude-dir=doc foo .", Allow, "", ""},
	{"rg foo src", Allow, "", ""},
	{"rg foo -g '*.go'", Allow, "", ""},
	{"rg foo --glob=*.{go,ts}", Allow, "", ""},
	{"rg foo -g '!doc/adr'", Allow, "", ""},
	{"rg foo -g '!doc/adr/**'", Allow, "", ""},
	{"rg foo -g '!doc/'", Allow, "", ""},
	{"rg -t go foo", Allow, "", ""},
	{"rg foo -g '!*.md'", Allow, "", ""},
	{"rg foo doc/adr -g '*.go'", Allow, "", ""},
	{"grep -r foo doc/adr --include=*.go", Allow, "", ""},
	{"rg foo -g '*.go' -g '*.md'", Deny, RuleUnscoped, ""},
	{"rg --type-not md foo", Allow, "", ""},
	{"rg -l foo src", Allow, "", ""},
	{"rg --files", Allow, "", ""},
	{"git grep foo -- src", Allow, "", ""},
	{"git grep foo -- ':!doc/adr'", Allow, "", ""},
	{"git grep foo -- '*.go'", Allow, "", ""},
	{"find . -name '*.go' -exec grep -l foo {} +", Allow, "", ""},
	{"ls doc/adr", Allow, "", ""},
	{"ls -la doc/adr/archive", Allow, "", ""},
	{"find doc/adr -name '*.md'", Allow, "", ""},
	{"tree doc", Allow, "", ""},
	{"wc -l doc/adr/*.md", Allow, "", ""},
	{"echo " + arch, Allow, "", ""},
	{"cat src/archive/old.go", Allow, "", ""},
	{"cat archive/notes.md", Allow, "", ""},
	{"grep -r foo archive/", Allow, "", ""},
	{"grep -r foo src/archive", Allow, "", ""},
	{"cat elsewhere/x.md", Allow, "", ""},
	{"cat DOC/ADR/archive/0002-use-postgresql.md", Allow, "", ""}, // no such file on a case-sensitive file system
	{"git log --oneline -- doc/adr", Allow, "", ""},
	{"git status && go test ./...", Allow, "", ""},
	{"cat README.md | grep foo", Allow, "", ""},
	{"grep foo", Allow, "", ""},
	{"git adr context --task 'add a cache'", Allow, "", ""},
	{"git adr list && git adr show 2", Allow, "", ""},
	{"git adr config guard", Allow, "", ""},
	{"git adr trust --show", Allow, "", ""},
	{"git config --get adr.guard.mode", Allow, "", ""},
	{"git config adr.guard.mode", Allow, "", ""},
	{"git adr compaction --mode summary --drafter manual", Allow, "", ""},
	{"mv doc/adr/0006-ship-one-binary.md /tmp/x", Allow, "", ""},

	// Only a person may.
	{"git adr decide 6 accept", Deny, RulePerson, ""},
	{"git adr decide ADR-0006 accepted", Deny, RulePerson, ""},
	{"git adr decide 3 deprecate --reason old", Deny, RulePerson, ""},
	{"git -C . adr compaction --confirm plan-1@2", Deny, RulePerson, ""},
	{"echo y | git adr compaction --confirm=plan-1@2", Deny, RulePerson, ""},
	{"git adr config guard off", Deny, RulePerson, ""},
	{"git adr config guard warn", Deny, RulePerson, ""},
	{"git-adr decide 6 accept", Deny, RulePerson, ""},
	{"/usr/local/bin/git-adr decide 6 accept", Deny, RulePerson, ""},
	{"env FOO=1 git adr decide 6 accept", Deny, RulePerson, ""},
	{"sudo -u root git adr config guard off", Deny, RulePerson, ""},
	{"bash -c 'git adr decide 6 accept'", Deny, RulePerson, ""},
	{"cd doc && git adr decide 6 accept", Deny, RulePerson, ""},
	{"git config adr.guard.mode off", Deny, RulePerson, ""},
	{"git config --global adr.guard.mode off", Deny, RulePerson, ""},
	{"git config --unset adr.guard.mode", Deny, RulePerson, ""},
	{"git --no-pager -c x=y adr guard uninstall --agent claude", Deny, RulePerson, ""},
	{"git adr trust", Deny, RulePerson, ""},
	{"git adr hooks uninstall", Deny, RulePerson, ""},
	{"eval 'git adr decide 6 accept'", Deny, RulePerson, ""},
	{"echo 'git adr decide 10 accept' | sh", Deny, RulePerson, ""},
	{"printf 'git adr decide %s accept\\n' 10 | bash", Deny, RulePerson, ""},
	{"bash <<'EOF'\ngit adr config guard off\nEOF", Deny, RulePerson, ""},
	{"sh -c \"$(echo git adr decide 6 accept)\"", Deny, RulePerson, ""},

	// The guard's own files, through the shell.
	{"echo 'mode = \"off\"' >> .adr.toml", Deny, RuleConfig, ""},
	{"sed -i s/guard/off/ .adr.toml", Deny, RuleConfig, ""},
	{"rm .opencode/plugin/git-adr-guard.js", Deny, RuleConfig, ""},
	{"cat > .claude/settings.json <<'EOF'\n{}\nEOF", Deny, RuleConfig, ""},
	{"echo '{}' | tee .codex/hooks.json", Deny, RuleConfig, ""},
	{"printf '[adr \"guard\"]\\n' >> .git/config", Deny, RuleConfig, ""},
	{"echo hi > notes.txt", Allow, "", ""},
	{"git checkout v1 -- .adr.toml", Deny, RuleConfig, ""},
	{"git checkout v1 .adr.toml", Deny, RuleConfig, ""},
	{"git restore --source=v1 .adr.toml", Deny, RuleConfig, ""},
	{"git restore -s v1 -- .", Deny, RuleConfig, ""},
	{"cd doc && git checkout v1 -- ..", Deny, RuleConfig, ""},
	{"git checkout v1 -- ':/*.toml'", Deny, RuleConfig, ""},
	{"git checkout -- .adr.toml", Deny, RuleConfig, "wrongly refused: a restore that names a guard file is refused whatever it puts back (here .adr.toml as committed, guard mode kept); edit the file instead"},
	{"git checkout -- .", Allow, "", ""},
	{"git restore .", Allow, "", ""},
	{"git restore --source=HEAD .", Allow, "", ""},
	{"git restore --staged .adr.toml", Allow, "", ""},
	{"git checkout v1 -- src doc/adr/0001-record-architecture-decisions.md", Allow, "", ""},
	{"git checkout main", Allow, "", ""},
}

func TestShellRecognition(t *testing.T) {
	f := newFixture(t, Guard)
	for _, c := range shellCases {
		cmd := strings.ReplaceAll(c.cmd, "TOP/", f.top+"/")
		d := f.shell(cmd)
		if d.Verdict != c.want {
			t.Errorf("%s\n  got %s, want %s: %s", cmd, d.Verdict, c.want, d.Reason)
			continue
		}
		if c.want == Deny && d.Findings[0].Rule != c.rule {
			t.Errorf("%s\n  got rule %s, want %s: %s", cmd, d.Findings[0].Rule, c.rule, d.Reason)
		}
	}
}

// In a sub-directory, relative paths are resolved from there.
func TestShellRelativeToCwd(t *testing.T) {
	f := newFixture(t, Guard)
	for _, c := range []shellCase{
		{"cat archive/0002-use-postgresql.md", Deny, RuleArchived, ""},
		{"cat ../../" + arch, Deny, RuleArchived, ""},
		{"grep -r foo .", Deny, RuleUnscoped, ""},
		{"rg foo", Deny, RuleUnscoped, ""},
		{"cat 0003-serve-mcp.md", Allow, "", ""},
	} {
		d := f.shellIn("doc/adr", c.cmd)
		if d.Verdict != c.want || c.want == Deny && d.Findings[0].Rule != c.rule {
			t.Errorf("in doc/adr: %s: got %s %v, want %s %s", c.cmd, d.Verdict, d.Findings, c.want, c.rule)
		}
	}
	d := f.shellIn("src", "grep -r foo .")
	if d.Verdict != Allow {
		t.Errorf("in src: grep -r foo . got %s: %s", d.Verdict, d.Reason)
	}
}

func TestShellUnparsable(t *testing.T) {
	f := newFixture(t, Guard)
	if d := f.shell("cat doc/adr/archive/x.md |"); d.Verdict != Deny || d.Findings[0].Rule != RuleUnparsed {
		t.Errorf("unparsable command naming the log: got %s %v", d.Verdict, d.Findings)
	}
	if d := f.shell("echo 'unterminated"); d.Verdict != Allow {
		t.Errorf("unparsable command naming nothing of the log: got %s", d.Verdict)
	}
}
