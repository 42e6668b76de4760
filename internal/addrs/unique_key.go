package addrs

// UniqueKey is a comparable value that identifies one address. Two
// addresses of the same kind with the same UniqueKey are the same address,
// so a UniqueKey can key a Go map where the address itself (which may hold
// slices) cannot.
type UniqueKey interface {
	uniqueKeySigil()
}

// UniqueKeyer is an address that has a UniqueKey.
type UniqueKeyer interface {
	UniqueKey() UniqueKey
}

// Map is a map keyed by addresses. The zero value is not usable; call MakeMap.
type Map[K UniqueKeyer, V any] struct {
	elems map[UniqueKey]MapElem[K, V]
}

// MapElem is one key/value pair of a Map.
type MapElem[K UniqueKeyer, V any] struct {
	Key   K
	Value V
}

// MakeMap returns an empty Map.
func MakeMap[K UniqueKeyer, V any]() Map[K, V] {
	return Map[K, V]{elems: make(map[UniqueKey]MapElem[K, V])}
}

// Put stores value under key, replacing any earlier value.
func (m Map[K, V]) Put(key K, value V) {
	m.elems[key.UniqueKey()] = MapElem[K, V]{Key: key, Value: value}
}

// Get returns the value stored under key, or the zero value.
func (m Map[K, V]) Get(key K) V {
	return m.elems[key.UniqueKey()].Value
}

// GetOk returns the value stored under key and whether there was one.
func (m Map[K, V]) GetOk(key K) (V, bool) {
	elem, ok := m.elems[key.UniqueKey()]
	return elem.Value, ok
}

// Has reports whether key has a value.
func (m Map[K, V]) Has(key K) bool {
	_, ok := m.elems[key.UniqueKey()]
	return ok
}

// Remove deletes key's value, if any.
func (m Map[K, V]) Remove(key K) {
	delete(m.elems, key.UniqueKey())
}

// Len returns the number of elements.
func (m Map[K, V]) Len() int {
	return len(m.elems)
}

// Elems returns the elements in no particular order.
func (m Map[K, V]) Elems() []MapElem[K, V] {
	out := make([]MapElem[K, V], 0, len(m.elems))
	for _, elem := range m.elems {
		out = append(out, elem)
	}
	return out
}

// Set is a set of addresses. The zero value is not usable; call MakeSet.
type Set[T UniqueKeyer] map[UniqueKey]T

// MakeSet returns a set holding the given addresses.
func MakeSet[T UniqueKeyer](elems ...T) Set[T] {
	s := make(Set[T], len(elems))
	for _, elem := range elems {
		s.Add(elem)
	}
	return s
}

// Add puts addr in the set.
func (s Set[T]) Add(addr T) { s[addr.UniqueKey()] = addr }

// Has reports whether addr is in the set.
func (s Set[T]) Has(addr T) bool {
	_, ok := s[addr.UniqueKey()]
	return ok
}

// Remove takes addr out of the set.
func (s Set[T]) Remove(addr T) { delete(s, addr.UniqueKey()) }
