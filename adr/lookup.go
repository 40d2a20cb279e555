package adr

import (
	"errors"
	"strings"
	"unicode/utf8"
)

// MinPrefix is the fewest characters a prefix must have to name a record
// (as git asks of an abbreviated object name): "2023" may name a year's
// records, "u" names nothing.
const MinPrefix = 4

// Lookup finds the record a person names: whatever [Log.Resolve] finds,
// else the one record whose ID, file name or slug starts with ref. The
// IDs of dated and slug records run to 60-100 characters; "20230405",
// "2023-04-05" (the date written either way) and "use-postgres" name
// 20230405-use-postgresql-for-orders when no other record starts so. A
// prefix that starts several is an [AmbiguousError] naming them all; one
// shorter than [MinPrefix], or a number (which names a numbered record
// exactly), is no prefix. Records resolve their links with Resolve, never
// by prefix.
func (l *Log) Lookup(ref string) (*Record, error) {
	r, err := l.Resolve(ref)
	var nf *NotFoundError
	if err == nil || !errors.As(err, &nf) {
		return r, err
	}
	p, _ := SplitLocator(strings.TrimSpace(ref))
	p = strings.ToLower(p)
	if utf8.RuneCountInString(p) < MinPrefix {
		return nil, err
	}
	_, _, _, number := parseIDNumber(p)
	var cands []*Record
	for _, rec := range l.Records {
		if number && rec.Numbered {
			continue // "12" is ADR-0012 or nothing, never ADR-0120
		}
		for _, k := range prefixKeys(rec) {
			if strings.HasPrefix(k, p) {
				cands = append(cands, rec)
				break
			}
		}
	}
	switch len(cands) {
	case 0:
		return nil, err
	case 1:
		return cands[0], nil
	}
	return nil, &AmbiguousError{Ref: ref, Candidates: cands, Prefix: true}
}

// prefixKeys are the lower-case names a prefix of which names rec: its
// ID, its file stem, its slug without number or date, and a dated stem
// with its date written the other way (2023-04-05 and 20230405).
func prefixKeys(rec *Record) []string {
	fn := rec.fileName()
	stem := strings.ToLower(fn.Stem)
	keys := []string{strings.ToLower(rec.ID), stem}
	if fn.Slug != "" && fn.Slug != fn.Stem {
		keys = append(keys, strings.ToLower(fn.Slug))
	}
	if !fn.Numbered && isDateSlug(fn.Stem) {
		rest := strings.ToLower(dateSlugRest(fn.Stem))
		date := strings.TrimRight(stem[:len(stem)-len(rest)], "-_")
		keys = append(keys, rest)
		if strings.Contains(date, "-") {
			keys = append(keys, strings.ReplaceAll(date, "-", "")+stem[len(date):])
		} else if len(date) == 8 {
			keys = append(keys, date[:4]+"-"+date[4:6]+"-"+date[6:]+stem[len(date):])
		}
	}
	return keys
}
