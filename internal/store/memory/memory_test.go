package memory_test

import (
	"testing"

	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/memory"
	"github.com/terrane/terrane/internal/store/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(*testing.T) store.Backend { return memory.New() })
}
