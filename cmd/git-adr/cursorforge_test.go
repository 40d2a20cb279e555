package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// forgeCursorMain signs a cursor payload of its own making, so scenarios can
// present cursors with any field value, run as the program forge-cursor:
//
//	forge-cursor KEYFILE fp=HEX16 [pos=N] [part=N] [intent=N] [units=N] [chars=N]
//	             [id=S] [domain=S] [iteration=S] [task=S] [file=S] [paths=S] [version=N]
//
// It writes the payload as docs/commands/context.md describes it (and
// adr/evidence/cursor.go implements it, independently of this code) and
// signs it with the key in KEYFILE. Defaults: version 3, intent 0
// (current), units 8, chars 12000, everything else zero or empty.
func forgeCursorMain() int {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: forge-cursor KEYFILE fp=HEX16 [field=value...]")
		return 2
	}
	key, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	f := map[string]string{"version": "3", "intent": "0", "units": "8", "chars": "12000", "pos": "0", "part": "0"}
	for _, a := range os.Args[2:] {
		k, v, ok := strings.Cut(a, "=")
		if !ok {
			fmt.Fprintf(os.Stderr, "forge-cursor: %q is not field=value\n", a)
			return 2
		}
		f[k] = v
	}
	num := func(k string) int64 {
		n, err := strconv.ParseInt(f[k], 10, 64)
		if err != nil {
			panic(fmt.Sprintf("forge-cursor: %s=%q: %v", k, f[k], err))
		}
		return n
	}
	fp, err := hex.DecodeString(f["fp"])
	if err != nil || len(fp) != 8 {
		fmt.Fprintf(os.Stderr, "forge-cursor: fp=%q is not 16 hex digits\n", f["fp"])
		return 2
	}
	b := []byte{byte(num("version"))}
	b = append(b, fp...)
	b = binary.AppendVarint(b, num("pos"))
	b = binary.AppendVarint(b, num("part"))
	b = append(b, byte(num("intent")))
	b = binary.AppendVarint(b, num("units"))
	b = binary.AppendVarint(b, num("chars"))
	for _, k := range []string{"id", "domain", "iteration", "task", "file", "paths"} {
		b = binary.AppendUvarint(b, uint64(len(f[k])))
		b = append(b, f[k]...)
	}
	m := hmac.New(sha256.New, key)
	m.Write([]byte("git-adr cursor\x00"))
	m.Write(b)
	enc := base64.RawURLEncoding
	fmt.Println(enc.EncodeToString(b) + "." + enc.EncodeToString(m.Sum(nil)[:16]))
	return 0
}
