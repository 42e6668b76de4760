package encryption

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"errors"
	"sync"
	"testing"
)

// sealer is a stand-in key service's own encryption of data keys: AES-GCM
// under a master key, with the key's name bound as additional data so a
// data key wrapped under one key does not unwrap under another.
type sealer struct {
	mu     sync.Mutex
	master []byte
	calls  map[string]int
}

func newSealer(t *testing.T) *sealer {
	t.Helper()
	master := make([]byte, 32)
	if _, err := rand.Read(master); err != nil {
		t.Fatal(err)
	}
	return &sealer{master: master, calls: map[string]int{}}
}

func (s *sealer) count(call string) {
	s.mu.Lock()
	s.calls[call]++
	s.mu.Unlock()
}

func (s *sealer) called(call string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[call]
}

func (s *sealer) gcm() cipher.AEAD {
	block, _ := aes.NewCipher(s.master)
	gcm, _ := cipher.NewGCM(block)
	return gcm
}

func (s *sealer) wrap(keyName string, plain []byte) []byte {
	gcm := s.gcm()
	nonce := make([]byte, gcm.NonceSize())
	_, _ = rand.Read(nonce)
	return gcm.Seal(nonce, nonce, plain, []byte(keyName))
}

func (s *sealer) unwrap(keyName string, wrapped []byte) ([]byte, error) {
	gcm := s.gcm()
	if len(wrapped) < gcm.NonceSize() {
		return nil, errors.New("ciphertext too short")
	}
	return gcm.Open(nil, wrapped[:gcm.NonceSize()], wrapped[gcm.NonceSize():], []byte(keyName))
}

func newDataKey(n int) []byte {
	key := make([]byte, n)
	_, _ = rand.Read(key)
	return key
}
