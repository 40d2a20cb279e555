// Command git-adr is a Git-native decision log and context engine; git runs
// it as `git adr`.
package main

import "os"

func main() { os.Exit(Main()) }
