//go:build !unix

package store

import (
	"errors"
	"os"
)

func mkfifo(string) error { return errors.New("no FIFOs here") }

const canSIGKILL = false

func diedOfSIGKILL(*os.ProcessState) bool { return false }
