package adr

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Status is a record's lifecycle state, normalised from whatever the record
// says. The raw text is always kept beside it (see [Record.RawStatus]).
type Status string

// The normalised statuses. Unknown keeps anything that cannot be classified
// without guessing: a missing or empty status, an unfilled template, prose.
const (
	Proposed   Status = "proposed"
	Accepted   Status = "accepted"
	Rejected   Status = "rejected"
	Deprecated Status = "deprecated"
	Superseded Status = "superseded"
	Unknown    Status = "unknown"
)

// Statuses lists the normalised statuses in lifecycle order.
var Statuses = []Status{Proposed, Accepted, Rejected, Deprecated, Superseded, Unknown}

// ParseStatus returns the normalised status named exactly by s (as printed
// by git-adr), for flags such as --status.
func ParseStatus(s string) (Status, bool) {
	for _, st := range Statuses {
		if strings.EqualFold(s, string(st)) {
			return st, true
		}
	}
	return "", false
}

// statusWords maps status words, in the languages ADR logs are written in,
// to their normalised status. Keys are lower case, accents kept.
var statusWords = map[string]Status{
	// English, and the words teams use for "in force".
	"proposed": Proposed, "proposal": Proposed, "draft": Proposed, "pending": Proposed,
	"open": Proposed, "in review": Proposed, "in-review": Proposed, "under review": Proposed,
	"review": Proposed, "wip": Proposed, "work in progress": Proposed, "suggested": Proposed,
	"planned": Proposed, "rfc": Proposed, "discussing": Proposed, "in discussion": Proposed,
	"in progress": Proposed, "requested": Proposed, "submitted": Proposed, "incomplete": Proposed,
	"accepted": Accepted, "approved": Accepted, "adopted": Accepted, "agreed": Accepted,
	"decided": Accepted, "implemented": Accepted, "active": Accepted, "done": Accepted,
	"complete": Accepted, "completed": Accepted,
	// EIP-style statuses (Idea, Draft, Review, Last Call, Final,
	// Stagnant, Withdrawn, Living): a Living record is kept up to date
	// and in force; Last Call and a Stagnant (inactive) draft are not
	// decided yet.
	"living": Accepted, "last call": Proposed, "stagnant": Proposed,
	// Kubernetes-style enhancement proposals (KEPs, Flux RFCs:
	// provisional, implementable, implemented, deferred, rejected,
	// withdrawn, replaced): implementable is approved for work;
	// "valid" (GridTools' valid | superseded | deprecated) is in force.
	"implementable": Accepted, "provisional": Proposed, "valid": Accepted,
	"in force": Accepted, "in effect": Accepted, "effective": Accepted, "established": Accepted, "final": Accepted, "current": Accepted,
	"partially implemented": Accepted, "partially accepted": Accepted, "partly implemented": Accepted,
	"partially adopted": Accepted, "partly superseded": Accepted, "partially superseded": Accepted,
	// A record whose status is its amendment ("Amended by [ADR-4](...)",
	// MADR's "Status: ... | superseded by ..." slot used for another
	// relation) is in force, amended.
	"amended": Accepted, "augmented": Accepted, "refined": Accepted,
	"accept":   Accepted,
	"rejected": Rejected, "declined": Rejected, "refused": Rejected, "denied": Rejected,
	"withdrawn": Rejected, "abandoned": Rejected, "dismissed": Rejected, "not accepted": Rejected,
	"deprecated": Deprecated, "obsolete": Deprecated, "retired": Deprecated, "outdated": Deprecated,
	"archived": Deprecated, "sunset": Deprecated, "legacy": Deprecated,
	"reverted": Deprecated, "rolled back": Deprecated, "revoked": Deprecated,
	"superseded": Superseded, "superceded": Superseded, "replaced": Superseded,
	"invalidated": Superseded, "obsoleted": Superseded,
	"superseeded": Superseded, "supersceded": Superseded,
	// French.
	"proposé": Proposed, "proposée": Proposed, "proposition": Proposed, "brouillon": Proposed,
	"en cours": Proposed, "en attente": Proposed, "en revue": Proposed,
	"accepté": Accepted, "acceptée": Accepted, "approuvé": Accepted, "approuvée": Accepted,
	"adopté": Accepted, "adoptée": Accepted, "validé": Accepted, "validée": Accepted,
	"implémenté": Accepted, "implémentée": Accepted, "mis en œuvre": Accepted,
	"rejeté": Rejected, "rejetée": Rejected, "refusé": Rejected, "refusée": Rejected, "abandonné": Rejected,
	"obsolète": Deprecated, "déprécié": Deprecated, "dépréciée": Deprecated, "périmé": Deprecated,
	"remplacé": Superseded, "remplacée": Superseded,
	// German.
	"vorgeschlagen": Proposed, "entwurf": Proposed, "in prüfung": Proposed, "offen": Proposed,
	"akzeptiert": Accepted, "angenommen": Accepted, "genehmigt": Accepted, "beschlossen": Accepted,
	"umgesetzt": Accepted, "implementiert": Accepted,
	"abgelehnt": Rejected, "verworfen": Rejected,
	"veraltet": Deprecated, "überholt": Deprecated, "abgekündigt": Deprecated,
	"ersetzt": Superseded, "abgelöst": Superseded,
	// Spanish and Portuguese.
	"propuesto": Proposed, "propuesta": Proposed, "borrador": Proposed, "pendiente": Proposed,
	"proposto": Proposed, "proposta": Proposed, "rascunho": Proposed, "pendente": Proposed,
	"aceptado": Accepted, "aceptada": Accepted, "aprobado": Accepted, "aprobada": Accepted,
	"aceito": Accepted, "aceita": Accepted, "aprovado": Accepted, "aprovada": Accepted,
	"rechazado": Rejected, "rechazada": Rejected, "rejeitado": Rejected, "rejeitada": Rejected,
	"recusado": Rejected,
	"obsoleto": Deprecated, "obsoleta": Deprecated, "depreciado": Deprecated, "descontinuado": Deprecated,
	"reemplazado": Superseded, "reemplazada": Superseded, "sustituido": Superseded,
	"substituído": Superseded, "substituido": Superseded, "substituída": Superseded,
	// Italian and Dutch.
	"bozza": Proposed, "voorgesteld": Proposed, "concept": Proposed,
	"accettato": Accepted, "accettata": Accepted, "approvato": Accepted, "approvata": Accepted,
	"geaccepteerd": Accepted, "goedgekeurd": Accepted, "aanvaard": Accepted,
	"rifiutato": Rejected, "respinto": Rejected, "afgewezen": Rejected, "verworpen": Rejected,
	"deprecato": Deprecated, "verouderd": Deprecated, "vervallen": Deprecated,
	"sostituito": Superseded, "vervangen": Superseded,
	// Chinese, Japanese, Korean, Russian.
	"提议": Proposed, "提案": Proposed, "草案": Proposed, "建议": Proposed, "待定": Proposed, "审核中": Proposed,
	"已接受": Accepted, "接受": Accepted, "通过": Accepted, "完成": Accepted, "已采纳": Accepted, "采纳": Accepted, "已批准": Accepted, "已实施": Accepted,
	"承認": Accepted, "承認済み": Accepted, "採用": Accepted, "採択": Accepted, "決定": Accepted,
	"已拒绝": Rejected, "拒绝": Rejected, "却下": Rejected, "不採用": Rejected,
	"已废弃": Deprecated, "废弃": Deprecated, "已弃用": Deprecated, "弃用": Deprecated, "非推奨": Deprecated, "廃止": Deprecated,
	"已取代": Superseded, "已替代": Superseded, "被取代": Superseded, "置き換え": Superseded, "置換": Superseded,
	"제안됨": Proposed, "제안": Proposed, "승인됨": Accepted, "승인": Accepted, "수락됨": Accepted,
	"거부됨": Rejected, "폐기됨": Deprecated, "대체됨": Superseded,
	"предложено": Proposed, "черновик": Proposed, "принято": Accepted, "утверждено": Accepted,
	"отклонено": Rejected, "устарело": Deprecated, "заменено": Superseded,
}

// NormalizeStatus classifies raw status text. The first words decide:
// "Accepted.", "**Accepted**", "Implemented (moved to cosmos-sdk)" and
// "Superseded by [5. X](0005-x.md)" are all classified; an unfilled template
// such as "{Deprecated|Proposed|Accepted}", a sentence that does not start
// with a status word, or nothing at all is Unknown.
func NormalizeStatus(raw string) Status {
	if strings.Contains(raw, "<!--") {
		// "proposed <!-- optional: draft | proposed | rejected -->": a
		// template's note beside the value renderers do not show.
		raw = htmlComment.ReplaceAllString(raw, "")
	}
	s := cleanStatus(withoutStruck(raw))
	// An empty status or an unfilled template ("{Proposed|Accepted}",
	// "[proposed | accepted | …]", "proposed/accepted/deprecated") names
	// no state.
	if s == "" || strings.Contains(s, "{") || statusChoices(s) {
		return Unknown
	}
	if strings.Contains(s, "|") {
		if pipeChoices(s) {
			return Unknown
		}
		// "proposed | partially superseded by [8. X](008-x.md)": a
		// status and a clause about it, as "," separates them.
		s = strings.ReplaceAll(s, "|", ",")
	}
	// A history in one value ("Submitted, 2017-01-26; Approved
	// 2017-02-22", "Proposed → Accepted"): its last entry that is a
	// status is the one in force.
	if parts := historyEntries(s); len(parts) > 1 {
		for ; len(parts) > 1; parts = parts[:len(parts)-1] {
			last := parts[len(parts)-1]
			if n := leadingDateLen(last); n > 0 {
				last = last[n:] // "2017-11-26: Accepted"
			}
			if st := leadingStatus(statusTokens(last)); st != Unknown {
				return st
			}
		}
	}
	// Dated entries ("2017-11-22 提议 2017-11-26 完成", "2020-03-25
	// accepted"): the last that names a status is the one in force.
	if entries := datedEntries(s); entries != nil {
		for i := len(entries) - 1; i >= 0; i-- {
			if st := statusOf(entries[i]); st != Unknown {
				return st
			}
		}
		return Unknown
	}
	return statusOf(s)
}

// statusOf is the status a value's first words name, or the end a later
// clause says it came to.
func statusOf(s string) Status {
	st := leadingStatus(statusTokens(s))
	if later := laterState(st, s); later != Unknown {
		return later
	}
	return st
}

// leadingDateLen is the length of the date s starts with ("2017-11-22",
// "[2020-01-02]", "3 May 2021:") and of the marks and spaces after it, 0
// when s starts with no date.
func leadingDateLen(s string) int {
	lead := len(s) - len(strings.TrimLeft(s, "[( \t"))
	if !mayStartDate(s[lead:]) {
		return 0 // most values: no need for the pattern
	}
	loc := dateInText.FindStringIndex(s[lead:])
	if loc == nil || loc[0] != 0 {
		return 0
	}
	n := lead + loc[1]
	return len(s) - len(strings.TrimLeft(s[n:], ")]:-–— \t"))
}

// mayStartDate reports whether s may start with a date dateInText
// matches: a digit, or the first three letters of a month's name.
func mayStartDate(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return s != ""
	}
	return len(s) >= 3 && strings.Contains("jan feb mar apr may jun jul aug sep oct nov dec", strings.ToLower(s[:3])) && !strings.Contains(s[:3], " ")
}

// datedEntries splits a value that starts with a date into the text after
// each date: "2017-11-22 提议 2017-11-26 完成" holds "提议" and "完成". It is
// nil when s starts with no date. A date within an entry's text ("accepted,
// superseded by ADR-9 on 2024-05-01") ends that entry with an empty one,
// which names no status.
func datedEntries(s string) []string {
	if leadingDateLen(s) == 0 {
		return nil
	}
	locs := dateInText.FindAllStringIndex(s, -1)
	out := make([]string, 0, len(locs))
	for i, l := range locs {
		end := len(s)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		out = append(out, strings.TrimLeft(s[l[1]:end], ")]:-–— \t"))
	}
	return out
}

// datedStatusEntry reports a line that is one entry of a dated history: a
// date followed by a status and nothing else ("2017-11-22 提议",
// "2026-12-01: Superseded by [5. X](0005-x.md)").
func datedStatusEntry(line string) bool {
	s := strings.TrimLeft(strings.TrimSpace(line), "-*+> \t")
	s = strings.TrimLeft(s, "*_")
	n := leadingDateLen(s)
	if n == 0 || n == len(s) || leadingDateLen(cleanStatus(s[n:])) > 0 || len(datedEntries(cleanStatus(s))) > 1 {
		return false
	}
	return bareStatus(s[n:])
}

// pipeChoices reports a value that lists choices with "|", a template's
// status line left unfilled: "[proposed | rejected | accepted |
// deprecated | … | superseded by [ADR-0005](0005-example.md)]", three
// choices or more, or bracketed, or only status words ("proposed |
// accepted"). "proposed | partially superseded by [8. X](008-x.md)" and
// "accepted | superseded by [9. X](0009-x.md)" are a status with a clause.
func pipeChoices(s string) bool {
	parts := strings.Split(s, "|")
	if len(parts) >= 3 || strings.HasPrefix(strings.TrimSpace(s), "[") {
		return true
	}
	for _, p := range parts {
		if _, _, rel := parseRelationLine(p, noCustom); rel || !bareStatus(p) {
			return false
		}
	}
	return true
}

// statusChoices reports a cleaned value that lists the states a status
// may take, separated by "/", as a template's vocabulary line does
// ("列表：提议/通过/完成/已弃用/已取代", "proposed/accepted/deprecated"): like
// "{Proposed|Accepted}", guidance rather than a status. The first choice
// may follow a label. A value whose parts all name one state
// ("accepted/implemented") is that state.
func statusChoices(s string) bool {
	if !strings.Contains(s, "/") {
		return false
	}
	parts := strings.Split(s, "/")
	states := map[Status]bool{}
	for i, p := range parts {
		words := statusTokens(p)
		if i == 0 && len(words) > 1 {
			// "列表：提议", "status: proposed": a label, then the first choice.
			if st, ok := statusWords[words[len(words)-1]]; ok {
				states[st] = true
				continue
			}
		}
		st, ok := statusWords[strings.Join(words, " ")]
		if !ok {
			return false
		}
		states[st] = true
	}
	return len(states) > 1
}

// struckSpans are the ways Markdown and HTML strike text out.
var struckSpans = [][2]string{{"~~", "~~"}, {"<del>", "</del>"}, {"<s>", "</s>"}, {"<strike>", "</strike>"}}

// withoutStruck drops struck-out text from a status value: in
// "~~Accepted~~ Superseded by ADR-9" the struck word is no longer the
// status. A value that is nothing but struck text is left as it is.
func withoutStruck(raw string) string {
	if !strings.ContainsAny(raw, "~<") {
		return raw // every strike starts with one of them
	}
	s := raw
	for _, sp := range struckSpans {
		for {
			i := indexFold(s, sp[0])
			if i < 0 {
				break
			}
			j := indexFold(s[i+len(sp[0]):], sp[1])
			if j < 0 {
				break
			}
			s = s[:i] + " " + s[i+len(sp[0])+j+len(sp[1]):]
		}
	}
	if strings.TrimSpace(s) == "" {
		return raw
	}
	return s
}

// indexFold is strings.Index ignoring case. Unlike an index into
// strings.ToLower(s), it is an index into s itself, even when s is not
// valid UTF-8 (ToLower widens each invalid byte to the three of U+FFFD).
func indexFold(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if strings.EqualFold(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// laterState is the end a later clause of a value says a record in
// force came to: "Accepted, superseded by ADR-9 on 2024-05-01",
// "Accepted (later deprecated)", "Accepted. Superseded by ADR-9.". Only
// an end overrides the first words (and a rejection only a proposal's):
// "Accepted, amended by ADR-3", "Accepted, partially superseded" and
// "Accepted, not deprecated" stay accepted. Unknown when no clause
// says so.
func laterState(first Status, s string) Status {
	if first != Accepted && first != Proposed {
		return Unknown
	}
	// statusClauses cuts at sentence ends too, never inside a link.
	for _, c := range statusClauses(s)[1:] {
		words := statusTokens(c)
		for len(words) > 0 && laterFillers[words[0]] {
			words = words[1:]
		}
		switch st := leadingStatus(words); {
		case st == Superseded || st == Deprecated:
			return st
		case st == Rejected && first == Proposed:
			return st
		}
	}
	return Unknown
}

// laterFillers are the words a later state may follow ("later
// deprecated", "since then superseded").
var laterFillers = map[string]bool{
	"later": true, "now": true, "since": true, "then": true, "and": true, "but": true,
	"eventually": true, "subsequently": true, "was": true, "is": true, "has": true,
	"been": true, "became": true, "status": true,
}

// historyEntries splits a status value at the marks that separate the
// entries of a history: ";" and arrows ("→", "->", "=>", "⇒").
func historyEntries(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		w := arrowAt(s[i:])
		if s[i] == ';' {
			w = 1
		}
		if w > 0 {
			out = append(out, s[start:i])
			start = i + w
			i += w - 1
		}
	}
	if out == nil {
		return nil
	}
	return append(out, s[start:])
}

// leadingStatus is the status the first words of a value name.
func leadingStatus(words []string) Status {
	if len(words) == 0 {
		return Unknown
	}
	// Longest known prefix of up to three words wins, so that "partially
	// implemented" beats "partially" and "in review" beats "in".
	for n := min(3, len(words)); n >= 1; n-- {
		if st, ok := statusWords[strings.Join(words[:n], " ")]; ok {
			return st
		}
	}
	// Scripts without spaces (CJK) may glue the status to what follows.
	for word, st := range statusWords {
		if !isASCII(word) && strings.HasPrefix(words[0], word) && len([]rune(word)) >= 2 {
			return st
		}
	}
	return Unknown
}

// bareStatus reports text that is a status and nothing else: status words
// ("Accepted.", "✅ **Accepted**", "Partially implemented"), optionally
// followed by a date, or "Superseded by [X](x.md)". Guidance that lists
// the choices ("Accepted or Rejected", "{Proposed|Accepted}") or a
// sentence about the status is not.
func bareStatus(s string) bool {
	if label, _, ok := parseRelationLine(s, noCustom); ok {
		return ParseRelationType(label) == SupersededBy
	}
	c := cleanStatus(s)
	if strings.ContainsAny(c, "{|") {
		return false
	}
	if n := leadingDateLen(c); n > 0 && n < len(c) {
		c = c[n:] // "2021-03-04 Accepted"
	}
	words := statusTokens(c)
	for len(words) > 1 && strings.Trim(words[len(words)-1], "0123456789-") == "" {
		words = words[:len(words)-1] // "Accepted 2021-03-04"
	}
	if len(words) == 0 || len(words) > 3 {
		return false
	}
	_, ok := statusWords[strings.Join(words, " ")]
	return ok
}

// cleanStatus strips Markdown decoration, emoji, surrounding punctuation
// and case.
func cleanStatus(raw string) string {
	s := strings.TrimSpace(raw)
	s = strings.TrimLeft(s, "-*+> \t")
	s = trimDecoration(s)
	s = strings.Map(func(r rune) rune {
		switch r {
		case '*', '_', '`', '~':
			return -1
		}
		return r
	}, s)
	return strings.ToLower(strings.TrimSpace(s))
}

// statusTokens splits cleaned status text into words, dropping punctuation
// such as "Accepted." or "Accepted:" or "[Accepted]".
func statusTokens(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) && !unicode.Is(unicode.Variation_Selector, r) ||
			r == '-' || r == '\'' || r == 'œ')
	})
}

// isDecoration reports a rune that decorates a status or a link label
// ("✅ Accepted", "⌛️ Superseded by [7. X](0007-x.md)"): pictographs and
// other symbols outside ASCII, the variation selectors and joiners that
// shape emoji, and enclosing marks (keycaps). ASCII symbols are Markdown
// ("|", ">", "+") and never decoration.
func isDecoration(r rune) bool {
	return r > 0x7f && r != utf8.RuneError && (unicode.IsSymbol(r) || unicode.Is(unicode.Variation_Selector, r) ||
		r == '\u200d' || unicode.Is(unicode.Me, r))
}

// decorationLen is the byte length of the decoration (and the spaces after
// it) that s starts with.
func decorationLen(s string) int {
	deco := false
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case isDecoration(r):
			deco = true
			i += size
			continue
		case deco && (r == ' ' || r == '\t' || r == '\u00a0'):
			i += size
			continue
		}
		break
	}
	if deco {
		return i
	}
	return 0
}

// trimDecoration drops the decoration s starts and ends with.
func trimDecoration(s string) string {
	s = s[decorationLen(s):]
	return strings.TrimRightFunc(s, func(r rune) bool { return isDecoration(r) || r == ' ' || r == '\t' })
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
