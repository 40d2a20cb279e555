package budget

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/git-adr/git-adr/internal/o200k"
)

// Policy names what this package implements.
const Policy = "prompt-budget v3 + keep-latest-read"

// Defaults of [Options].
const (
	DefaultKeepGroups = 2
	// DefaultReadCap is the largest read result (in code points) kept
	// inline as a file's latest read: a page of `git adr nav read`.
	DefaultReadCap = 32 * 1024
)

// DefaultReadTools are the tools whose results are file reads: the
// read_file convention, Claude Code's Read and git-adr's own adr_read.
var DefaultReadTools = []string{"read_file", "Read", "adr_read"}

// Options steer a plan.
type Options struct {
	// Budget is the most tokens the outbound request may take.
	Budget int
	// KeepGroups is how many of the newest tool groups are never
	// compacted (0: DefaultKeepGroups).
	KeepGroups int
	// KeepLatestReads keeps the newest successful read of each path
	// inline (keep-latest-read); off, reads are compacted like any group.
	KeepLatestReads bool
	// ReadTools name the read tools (nil: DefaultReadTools).
	ReadTools []string
	// ReadCap is the largest read result kept inline (0: DefaultReadCap).
	ReadCap int
	// Count counts tokens (nil: o200k_base); it is called from several
	// goroutines at once.
	Count func(string) int
}

func (o Options) withDefaults() Options {
	if o.KeepGroups == 0 {
		o.KeepGroups = DefaultKeepGroups
	}
	if o.ReadTools == nil {
		o.ReadTools = DefaultReadTools
	}
	if o.ReadCap == 0 {
		o.ReadCap = DefaultReadCap
	}
	if o.Count == nil {
		o.Count = countO200k
	}
	return o
}

// countO200k counts o200k_base tokens (the encoding is compiled into the
// binary: no file or network is read).
func countO200k(s string) int {
	n, err := o200k.Count(s)
	if err != nil {
		return len(s)
	}
	return n
}

// Size is a request's size.
type Size struct {
	Messages int `json:"messages"`
	Bytes    int `json:"bytes"`
	// Tokens is the sum of the o200k_base counts of the request's parts
	// (envelope and messages): an estimate for other models.
	Tokens int `json:"tokens_o200k"`
}

// Plan says what goes into the outbound request and why.
type Plan struct {
	Policy string `json:"policy"`
	Format Format `json:"format"`
	Shape  Shape  `json:"shape"`
	// Transcript is the SHA-256 of the transcript's bytes: a plan applies
	// to that transcript only.
	Transcript string `json:"transcript_sha256"`
	Budget     int    `json:"budget_tokens"`
	Tokenizer  string `json:"tokenizer"`
	Options    struct {
		KeepGroups      int      `json:"keep_groups"`
		KeepLatestReads bool     `json:"keep_latest_reads"`
		ReadTools       []string `json:"read_tools"`
		ReadCap         int      `json:"read_cap"`
	} `json:"options"`
	Before Size `json:"before"`
	After  Size `json:"after"`
	// Fits says whether the outbound request is within the budget; when
	// it is not, Failure says why and nothing should be sent.
	Fits    bool   `json:"fits"`
	Failure string `json:"failure,omitempty"`
	// Exchange is where the newest exchange starts (1-based message
	// number; 1 when the transcript has no user instruction).
	Exchange  int           `json:"newest_exchange_starts_at"`
	Compacted []GroupAction `json:"compacted"`
	Kept      []GroupAction `json:"kept"`
	Trimmed   []TrimAction  `json:"trimmed"`
	// EnvelopeTokens counts the request without its messages (model,
	// tools, system prompt): never compacted.
	EnvelopeTokens int `json:"envelope_tokens"`

	out []byte
}

// GroupAction is a tool group compacted or kept.
type GroupAction struct {
	Group int `json:"group"`
	// Messages are the group's 1-based message numbers.
	Messages []int      `json:"messages"`
	Calls    []CallInfo `json:"calls"`
	Reason   string     `json:"reason"`
	// Tokens before and, for a compacted group, after (its excerpt).
	Tokens  int `json:"tokens"`
	Excerpt int `json:"excerpt_tokens,omitempty"`
}

// CallInfo names a call.
type CallInfo struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	Path string `json:"path,omitempty"`
}

// TrimAction is an older exchange left out whole.
type TrimAction struct {
	Messages []int  `json:"messages"`
	Tokens   int    `json:"tokens"`
	Reason   string `json:"reason"`
}

// Reasons in plans.
const (
	ReasonOld        = "old complete tool group of the newest exchange"
	ReasonLatest     = "one of the latest tool groups"
	ReasonLatestRead = "holds the latest read of "
	ReasonNoGain     = "its excerpt would not be smaller"
	ReasonFits       = "not needed: the request fits"
	ReasonTrim       = "older exchange trimmed: the excerpts were not enough"
)

// ErrBudget means the request cannot be brought within the budget; the
// plan's Failure says why.
var ErrBudget = errors.New("the request does not fit the budget")

// NewPlan decides, deterministically, which groups to compact and which
// exchanges to trim. data is the transcript's bytes t was decoded from.
func NewPlan(t *Transcript, data []byte, o Options) (*Plan, error) {
	if o.Budget <= 0 {
		return nil, errors.New("the budget must be a positive number of tokens")
	}
	o = o.withDefaults()
	sum := sha256.Sum256(data)
	p := &Plan{Policy: Policy, Format: t.Format, Shape: t.Shape, Transcript: hex.EncodeToString(sum[:]), Budget: o.Budget,
		Tokenizer: "o200k_base (an estimate for other models)", Compacted: []GroupAction{}, Kept: []GroupAction{}, Trimmed: []TrimAction{},
	}
	p.Options.KeepGroups, p.Options.KeepLatestReads, p.Options.ReadTools, p.Options.ReadCap = o.KeepGroups, o.KeepLatestReads, o.ReadTools, o.ReadCap

	// Tokens of every part, counted once.
	n := len(t.Messages)
	tokens := make([]int, n)
	total := o.Count(string(t.envelope()))
	p.EnvelopeTokens = total
	countAll(t.Messages, tokens, o.Count)
	for i := range tokens {
		total += tokens[i]
	}
	p.Before = Size{Messages: n, Bytes: len(t.render(raws(t.Messages))), Tokens: total}

	// The newest exchange starts at the last user instruction.
	start := 0
	for i := n - 1; i >= 0; i-- {
		if t.Messages[i].instruction() {
			start = i
			break
		}
	}
	p.Exchange = start + 1
	var newest []*Group
	for _, g := range t.Groups {
		if g.Messages[0].Index > start {
			newest = append(newest, g)
		}
	}
	protected := map[*Group]bool{}
	for _, g := range newest[max(0, len(newest)-o.KeepGroups):] {
		protected[g] = true
	}
	latest := latestReads(newest, o)

	replaced := map[*Group]json.RawMessage{}
	groupTokens := func(g *Group) int {
		s := 0
		for _, m := range g.Messages {
			s += tokens[m.Index]
		}
		return s
	}
	action := func(g *Group, reason string) GroupAction {
		a := GroupAction{Group: g.Index + 1, Reason: reason, Tokens: groupTokens(g)}
		for _, m := range g.Messages {
			a.Messages = append(a.Messages, m.Index+1)
		}
		for _, c := range g.Calls {
			a.Calls = append(a.Calls, CallInfo{ID: c.ID, Name: c.Name, Path: readPath(c, o)})
		}
		return a
	}
	kept := map[*Group]string{}
	// Oldest first, until the request fits.
	for _, g := range newest {
		switch {
		case protected[g]:
			kept[g] = ReasonLatest
			continue
		case latest[g] != "":
			kept[g] = ReasonLatestRead + latest[g]
			continue
		case total <= o.Budget:
			kept[g] = ReasonFits
			continue
		}
		ex := t.excerptMessage(g, excerpt(g))
		exTokens := o.Count(string(ex)) + 1
		if exTokens >= groupTokens(g) {
			kept[g] = ReasonNoGain
			continue
		}
		replaced[g] = ex
		a := action(g, ReasonOld)
		a.Excerpt = exTokens
		p.Compacted = append(p.Compacted, a)
		total += exTokens - a.Tokens
	}
	// Ordinary trimming: older exchanges, oldest first, whole. Messages
	// before the first instruction (system, developer) stay.
	trimmed := map[int]bool{}
	if total > o.Budget {
		var bounds []int
		for i := 0; i < start; i++ {
			if t.Messages[i].instruction() {
				bounds = append(bounds, i)
			}
		}
		bounds = append(bounds, start)
		for k := 0; k+1 < len(bounds) && total > o.Budget; k++ {
			tr := TrimAction{Reason: ReasonTrim}
			for i := bounds[k]; i < bounds[k+1]; i++ {
				trimmed[i] = true
				tr.Messages = append(tr.Messages, i+1)
				tr.Tokens += tokens[i]
			}
			total -= tr.Tokens
			p.Trimmed = append(p.Trimmed, tr)
		}
	}
	for _, g := range newest {
		if _, ok := replaced[g]; !ok {
			p.Kept = append(p.Kept, action(g, kept[g]))
		}
	}

	// The outbound request: retained messages as they were, each
	// compacted group as one excerpt message where its call was.
	var out []json.RawMessage
	for i, m := range t.Messages {
		if trimmed[i] {
			continue
		}
		if g := m.group; g != nil {
			if ex, ok := replaced[g]; ok {
				if m == g.Messages[0] {
					out = append(out, ex)
				}
				continue
			}
		}
		out = append(out, m.raw)
	}
	p.out = t.render(out)
	p.After = Size{Messages: len(out), Bytes: len(p.out), Tokens: total}
	p.Fits = total <= o.Budget
	if !p.Fits {
		p.Failure = failure(t, p, tokens, start, protected, latest, o)
	}
	return p, nil
}

// countAll counts every message's tokens (and one for its separator),
// spread over the CPUs: tokenizing is most of a plan's time.
func countAll(ms []*Message, tokens []int, count func(string) int) {
	workers := min(runtime.GOMAXPROCS(0), max(1, len(ms)/64))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < len(ms); i += workers {
				tokens[i] = count(string(ms[i].raw)) + 1
			}
		}()
	}
	wg.Wait()
}

func raws(ms []*Message) []json.RawMessage {
	out := make([]json.RawMessage, len(ms))
	for i, m := range ms {
		out[i] = m.raw
	}
	return out
}

// failure explains, with figures, why the request cannot fit.
func failure(t *Transcript, p *Plan, tokens []int, start int, protected map[*Group]bool, latest map[*Group]string, o Options) string {
	prot, reads, fixed := 0, 0, p.EnvelopeTokens
	for _, g := range t.Groups {
		for _, m := range g.Messages {
			switch {
			case protected[g]:
				prot += tokens[m.Index]
			case latest[g] != "":
				reads += tokens[m.Index]
			}
		}
	}
	for i := 0; i < start; i++ {
		if t.Messages[i].Role == "system" || t.Messages[i].Role == "developer" {
			fixed += tokens[i]
		}
	}
	parts := []string{fmt.Sprintf("after compaction and trimming the request takes %d tokens, over the budget of %d", p.After.Tokens, o.Budget),
		fmt.Sprintf("the latest %d tool groups take %d", o.KeepGroups, prot),
		fmt.Sprintf("the request's fields and system messages %d", fixed)}
	if reads > 0 {
		parts = append(parts, fmt.Sprintf("latest reads kept inline %d (turn keep-latest-read off or lower the read cap to excerpt them)", reads))
	}
	return strings.Join(parts, "; ")
}

// Apply returns the outbound request of a plan that fits; ErrBudget (and
// the plan's Failure) otherwise.
func (p *Plan) Apply() ([]byte, error) {
	if !p.Fits {
		return nil, fmt.Errorf("%w: %s", ErrBudget, p.Failure)
	}
	return append([]byte(nil), p.out...), nil
}

// latestReads finds, among the newest exchange's groups, the newest
// successful read of each path within the read cap, and returns the
// groups holding one with the paths (sorted, comma-separated).
func latestReads(groups []*Group, o Options) map[*Group]string {
	out := map[*Group]string{}
	if !o.KeepLatestReads {
		return out
	}
	seen := map[string]bool{}
	paths := map[*Group][]string{}
	for k := len(groups) - 1; k >= 0; k-- {
		g := groups[k]
		for j := len(g.Calls) - 1; j >= 0; j-- {
			c := g.Calls[j]
			p := readPath(c, o)
			if p == "" || c.Result == nil || c.Result.Error || seen[p] {
				continue
			}
			// The newest read of a path settles it, kept or not: an older
			// read of the same path is never the latest.
			seen[p] = true
			if len([]rune(c.Result.Text)) <= o.ReadCap {
				paths[g] = append(paths[g], p)
			}
		}
	}
	for g, ps := range paths {
		sort.Strings(ps)
		out[g] = strings.Join(ps, ", ")
	}
	return out
}

// readPath is the file a read call reads ("" for other calls).
func readPath(c *Call, o Options) string {
	isRead := false
	for _, n := range o.ReadTools {
		isRead = isRead || n == c.Name
	}
	if !isRead {
		return ""
	}
	var args map[string]json.RawMessage
	if json.Unmarshal(c.Args, &args) != nil {
		return ""
	}
	for _, k := range []string{"path", "file_path", "filePath", "file"} {
		var s string
		if json.Unmarshal(args[k], &s) == nil && s != "" {
			return s
		}
	}
	return ""
}
