package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/git-adr/git-adr/adr"
)

// TestProposeRace starts agents proposing at once on one repository: git
// adr propose processes and git adr mcp --allow-propose sessions (driven
// by mcp-client), all held at the failpoint just before the project lock
// until every one has reached it, then let go together. Every proposal
// must succeed with a number of its own, and every record must be whole:
// proposed, its title, its full text to the last line.
func TestProposeRace(t *testing.T) {
	if testing.Short() {
		t.Skip("starts many processes")
	}
	const cli, sessions = 6, 3
	env := procEnv(t)
	dir := writeLog(t, env, 10, 0)
	barrier := t.TempDir()
	// Nobody gives up on the lock: every proposal must get through.
	env = append(env, "GIT_ADR_LOCK_TIMEOUT=300s", fmt.Sprintf("GIT_ADR_BARRIER=propose-lock:%s:%d", barrier, cli+sessions))
	// The consequences end with the marker: a record cut short lacks it.
	consequences := func(i int) string {
		return strings.Repeat(fmt.Sprintf("Proposal %d costs one more service. ", i), 120) + fmt.Sprintf("\n\nEND-OF-PROPOSAL-%d", i)
	}
	type outcome struct {
		who    string
		err    error
		stdout string
		stderr string
	}
	out := make([]outcome, cli+sessions)
	var wg sync.WaitGroup
	for i := range cli + sessions {
		title := fmt.Sprintf("Race proposal %d", i)
		var cmd *exec.Cmd
		if i < cli {
			cmd = exec.Command("git-adr", "propose", "--json", title, "--context", fmt.Sprintf("Context %d.", i),
				"--decision", fmt.Sprintf("Decision %d.", i), "--consequences", consequences(i), "--relates-to", "7")
		} else {
			args, _ := json.Marshal(map[string]any{"title": title, "context": fmt.Sprintf("Context %d.", i),
				"decision": fmt.Sprintf("Decision %d.", i), "consequences": consequences(i), "relates_to": []string{"7"}})
			script := filepath.Join(t.TempDir(), "calls.jsonl")
			os.WriteFile(script, []byte(`?{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"race","version":"1"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"adr_propose","arguments":`+string(args)+`}}
`), 0o644)
			cmd = exec.Command("mcp-client", script, "git", "adr", "mcp", "--allow-propose")
		}
		cmd.Dir, cmd.Env = dir, env
		var so, se bytes.Buffer
		cmd.Stdout, cmd.Stderr = &so, &se
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := cmd.Run()
			out[i] = outcome{who: title, err: err, stdout: so.String(), stderr: se.String()}
		}()
	}
	wg.Wait()
	seen := map[string]string{}
	for i, o := range out {
		if o.err != nil || strings.Contains(o.stdout, "isError") {
			t.Errorf("%s: %v\nstdout: %s\nstderr: %s", o.who, o.err, o.stdout, o.stderr)
			continue
		}
		text := o.stdout
		if i >= cli {
			// "id 2" then the tool's text.
			_, text, _ = strings.Cut(o.stdout, "id 2\n")
		}
		var res proposeResult
		if err := json.Unmarshal([]byte(text), &res); err != nil {
			t.Errorf("%s: %v: %s", o.who, err, o.stdout)
			continue
		}
		if prev, dup := seen[res.ID]; dup {
			t.Errorf("%s and %s both got %s", prev, o.who, res.ID)
		}
		seen[res.ID] = o.who
		data, err := os.ReadFile(filepath.Join(dir, res.Path))
		if err != nil {
			t.Errorf("%s: %v", o.who, err)
			continue
		}
		rec := adr.Parse(data)
		if rec.Status != adr.Proposed || rec.Title != o.who || !bytes.HasSuffix(data, []byte(fmt.Sprintf("END-OF-PROPOSAL-%d\n", i))) {
			t.Errorf("%s: %s is not whole: status %s, title %q, ends %q", o.who, res.Path, rec.Status, rec.Title, data[max(0, len(data)-40):])
		}
	}
	if len(seen) != cli+sessions {
		t.Fatalf("%d proposals written, want %d", len(seen), cli+sessions)
	}
	// Every one reached the barrier, so they did race.
	if ents, _ := os.ReadDir(barrier); len(ents) != cli+sessions {
		t.Errorf("%d processes at the barrier, want %d", len(ents), cli+sessions)
	}
	// The record they all link has every reverse link once, and nothing is
	// left half done.
	seven := readRecord(t, dir, 7)
	for _, o := range out {
		if n := strings.Count(seven, "["+o.who+"]") + strings.Count(seven, ". "+o.who+"]"); n != 1 {
			t.Errorf("ADR-0007 links %q %d times", o.who, n)
		}
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, ".git", "adr", "journal")); len(ents) != 0 {
		t.Errorf("%d journals left", len(ents))
	}
	r := runAdr(t, dir, env, "list")
	if n := strings.Count(r.stdout, "  proposed  "); n != cli+sessions+1 { // writeLog's record 10 is proposed too
		t.Errorf("list shows %d proposed records:\n%s", n, r.stdout)
	}
}

// TestProposeSignalMidWrite ends a git adr mcp --allow-propose session
// with SIGTERM (as agent CLIs end their servers) while adr_propose is half
// way through its write, held there by a failpoint: the lock is released,
// nothing is left half written for good, and the next write finishes the
// proposal from its journal.
func TestProposeSignalMidWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	env := procEnv(t)
	dir := writeLog(t, env, 10, 0)
	barrier := t.TempDir()
	// The server stops after the first file of its change is written;
	// the second arrival never comes.
	cmd := exec.Command("git-adr", "mcp", "--allow-propose")
	cmd.Dir, cmd.Env = dir, append(env, "GIT_ADR_BARRIER=changeset-step:"+barrier+":2")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	fmt.Fprintln(stdin, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	fmt.Fprintln(stdin, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"adr_propose","arguments":{"title":"Interrupted proposal","context":"c","decision":"d","amends":["7"]}}}`)
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if ents, _ := os.ReadDir(barrier); len(ents) == 1 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the write never reached the failpoint: %s", stderr.String())
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	cmd.Wait()
	if _, err := os.Stat(filepath.Join(dir, ".git", "adr", "lock")); !os.IsNotExist(err) {
		t.Errorf("the lock is left: %v", err)
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, ".git", "adr", "journal")); len(ents) != 1 {
		t.Fatalf("%d journals, want the interrupted change's", len(ents))
	}
	// The next write finishes it, then does its own.
	r := runAdr(t, dir, env, "propose", "Next proposal", "--context", "c", "--decision", "d")
	if r.code != 0 || !strings.Contains(r.stderr, "finished an interrupted `git adr mcp: adr_propose`") {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	rec, err := os.ReadFile(filepath.Join(dir, "doc/adr/0011-interrupted-proposal.md"))
	if err != nil || adr.Parse(rec).Status != adr.Proposed || !strings.Contains(readRecord(t, dir, 7), "Amended by [11. Interrupted proposal](0011-interrupted-proposal.md)") {
		t.Errorf("the interrupted proposal was not finished: %v\n%s", err, rec)
	}
	if !strings.HasPrefix(r.stdout, "doc/adr/0012-next-proposal.md\n") {
		t.Errorf("next proposal: %s", r.stdout)
	}
}
