//go:build !unix

package adr

const oNonblock = 0
