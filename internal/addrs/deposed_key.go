package addrs

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
)

// DeposedKey names a deposed object of a resource instance: the old object
// kept while create_before_destroy creates its replacement. It is eight
// lowercase hexadecimal digits; NotDeposed is the empty key of the current
// object.
type DeposedKey string

// NotDeposed is the key of an instance's current object.
const NotDeposed = DeposedKey("")

// NewDeposedKey returns a random deposed key.
func NewDeposedKey() DeposedKey {
	var raw [4]byte
	if _, err := rand.Read(raw[:]); err != nil {
		// crypto/rand only fails when the OS has no entropy source, in which case nothing else
		// in the program can work either.
		panic(fmt.Sprintf("reading random bytes for a deposed key: %s", err))
	}
	return DeposedKey(hex.EncodeToString(raw[:]))
}

// ParseDeposedKey checks that str is a valid deposed key.
func ParseDeposedKey(str string) (DeposedKey, error) {
	if len(str) != 8 {
		return NotDeposed, fmt.Errorf("deposed key %q must be exactly eight hexadecimal digits", str)
	}
	for _, r := range str {
		if (r < '0' || r > '9') && (r < 'a' || r > 'f') {
			return NotDeposed, fmt.Errorf("deposed key %q must be lowercase hexadecimal digits only", str)
		}
	}
	return DeposedKey(str), nil
}

func (k DeposedKey) String() string { return string(k) }

// GoString returns the key with a label, for debugging output.
func (k DeposedKey) GoString() string {
	if k == NotDeposed {
		return "addrs.NotDeposed"
	}
	return fmt.Sprintf("addrs.DeposedKey(%q)", string(k))
}
