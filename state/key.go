package state

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// The key that seals vbd's own records (receipts, session baselines, block
// counts). Everything under the repository and its git dir is the agent's
// to write, so a record vbd finds there is evidence only when it carries a
// MAC made with a secret kept elsewhere: the user's state dir, which a
// session's edits of the repository do not reach. An agent that reads the
// key can still forge records; sealing stops edits and copies.

// keyFile is the key's name in the user's state dir.
const keyFile = "record.key"

// keyBytes is the size of the secret.
const keyBytes = 32

// Key seals and checks vbd's records.
type Key struct {
	secret []byte
}

// UserStateDir is vbd's dir in the user's state dir, outside every
// repository: $XDG_STATE_HOME/vbd, else ~/.local/state/vbd (on Windows,
// where HOME is rarely set, %LOCALAPPDATA%\vbd: key_windows.go). getenv
// nil means os.Getenv.
func UserStateDir(getenv func(string) string) (string, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	if d := getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "vbd"), nil
	}
	if d := platformStateDir(getenv); d != "" {
		return d, nil
	}
	home := getenv("HOME")
	if !filepath.IsAbs(home) {
		return "", errors.New("no user state dir for vbd's key (set XDG_STATE_HOME or HOME)")
	}
	return filepath.Join(home, ".local", "state", "vbd"), nil
}

// UserKey returns the user's key, making it on first use.
func UserKey() (*Key, error) {
	dir, err := UserStateDir(nil)
	if err != nil {
		return nil, err
	}
	return LoadKey(dir)
}

// LoadKey reads the key in dir, making it on first use: a random secret
// written to a temp file of mode 0600 and linked into place, so that of two
// processes making it at once both end up with the one that was linked
// first, and no reader ever sees half a key.
func LoadKey(dir string) (*Key, error) {
	path := filepath.Join(dir, keyFile)
	if k, err := readKey(path); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return k, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("make vbd's key dir: %w", err)
	}
	secret := make([]byte, keyBytes)
	_, _ = rand.Read(secret) // crypto/rand.Read never fails on supported platforms
	f, err := os.CreateTemp(dir, "."+keyFile+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("make vbd's key: %w", err)
	}
	tmp := f.Name()
	defer func() { _ = os.Remove(tmp) }()
	// CreateTemp makes the file 0600 already; Chmod keeps it so whatever
	// the platform's default.
	_, werr := f.Write([]byte(hex.EncodeToString(secret) + "\n"))
	err = errors.Join(werr, f.Chmod(0o600), f.Sync(), f.Close())
	if err != nil {
		return nil, fmt.Errorf("make vbd's key: %w", err)
	}
	if err := os.Link(tmp, path); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("make vbd's key: %w", err)
	}
	return readKey(path)
}

func readKey(path string) (*Key, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	secret, err := hex.DecodeString(string(trimNewline(data)))
	if err != nil || len(secret) != keyBytes {
		return nil, fmt.Errorf("vbd's key %s is damaged; remove it and vbd makes a new one (records it sealed are then not trusted)", path)
	}
	return &Key{secret: secret}, nil
}

func trimNewline(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

// Seal returns the MAC of a record: its kind, where it lives (so that a
// record copied from another repository or another session's file does
// not check) and its bytes, as hex.
func (k *Key) Seal(kind, where string, body []byte) string {
	m := hmac.New(sha256.New, k.secret)
	HashField(m, kind)
	HashField(m, where)
	m.Write(body)
	return hex.EncodeToString(m.Sum(nil))
}

// Check reports whether mac seals the record. A nil key checks nothing.
func (k *Key) Check(mac, kind, where string, body []byte) bool {
	if k == nil || mac == "" {
		return false
	}
	want := k.Seal(kind, where, body)
	return hmac.Equal([]byte(mac), []byte(want))
}
