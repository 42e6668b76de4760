package encrypted_test

import (
	"context"
	"strings"
	"testing"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/terrane/terrane/internal/encryption"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/internal/store/encrypted"
	"github.com/terrane/terrane/internal/store/memory"
	"github.com/terrane/terrane/internal/store/storetest"
	"github.com/terrane/terrane/proto/pbresource"
	"github.com/terrane/terrane/proto/terrane/recordsv1"
)

func cipherFor(t testing.TB, body string) *encryption.RecordCipher {
	t.Helper()
	enc, diags := encryption.New(encryption.Options{Env: body})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return encryption.NewRecordCipher(enc.State())
}

func pbkdf2State(name, passphrase string) string {
	return `
key_provider "pbkdf2" "` + name + `" {
  passphrase = "` + passphrase + `"
  iterations = 200000
}
method "aes_gcm" "` + name + `" { keys = key_provider.pbkdf2.` + name + ` }
`
}

var mainConfig = pbkdf2State("main", "a passphrase for the tests") + `state { method = method.aes_gcm.main }`

func TestConformance(t *testing.T) {
	cipher := cipherFor(t, mainConfig)
	storetest.Run(t, func(t *testing.T) store.Backend { return encrypted.New(memory.New(), cipher) })
}

var instanceType = &pbresource.Type{Group: "terrane", GroupVersion: "v1", Kind: "ResourceInstance"}

func record(t *testing.T, name, payload string) *pbresource.Resource {
	t.Helper()
	data, err := anypb.New(wrapperspb.String(payload))
	if err != nil {
		t.Fatal(err)
	}
	return &pbresource.Resource{Id: &pbresource.ID{Type: instanceType, Tenancy: &pbresource.Tenancy{Partition: "p", Namespace: "w"}, Name: name, Uid: "u-" + name},
		Generation: "g1", Data: data}
}

// rawText is every stored record's data as the backend below holds it.
func rawText(t *testing.T, inner store.Backend) string {
	t.Helper()
	all, err := inner.List(context.Background(), store.StrongConsistency, instanceType, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, res := range all {
		raw, err := proto.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(raw)
	}
	return b.String()
}

func TestBackendBelowSeesNoPlainData(t *testing.T) {
	inner := memory.New()
	b := encrypted.New(inner, cipherFor(t, mainConfig))
	ctx := context.Background()
	if _, err := b.Batch(ctx, []store.Op{{Kind: store.OpWrite, Resource: record(t, "null_resource.a", "hunter2-secret")}}); err != nil {
		t.Fatal(err)
	}
	if text := rawText(t, inner); strings.Contains(text, "hunter2-secret") || !strings.Contains(text, "null_resource.a") {
		t.Errorf("the backend below holds the secret, or lost the readable name")
	}
	got, err := b.Read(ctx, store.StrongConsistency, record(t, "null_resource.a", "").GetId())
	if err != nil {
		t.Fatal(err)
	}
	var s wrapperspb.StringValue
	if err := got.GetData().UnmarshalTo(&s); err != nil || s.GetValue() != "hunter2-secret" {
		t.Errorf("read back %q, %v", s.GetValue(), err)
	}
}

func TestWrongKeyReadsNothing(t *testing.T) {
	inner := memory.New()
	writer := encrypted.New(inner, cipherFor(t, mainConfig))
	ctx := context.Background()
	for _, name := range []string{"a", "b"} {
		if _, err := writer.WriteCAS(ctx, record(t, name, "secret-"+name)); err != nil {
			t.Fatal(err)
		}
	}
	reader := encrypted.New(inner, cipherFor(t, pbkdf2State("main", "not the passphrase at all")+`state { method = method.aes_gcm.main }`))
	list, err := reader.List(ctx, store.StrongConsistency, instanceType, nil, "")
	if err == nil || list != nil {
		t.Fatalf("listing with the wrong passphrase returned %d records, %v", len(list), err)
	}
	for _, want := range []string{`resource instance record "a"`, "key_provider.pbkdf2.main", "wrong key"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	plainReader := encrypted.New(inner, encryption.NewRecordCipher(nil))
	if _, err := plainReader.List(ctx, store.StrongConsistency, instanceType, nil, ""); err == nil || !strings.Contains(err.Error(), "this configuration encrypts no state") {
		t.Errorf("reading encrypted records without configuration: %v", err)
	}
}

func TestDataCopiedToAnotherRecordIsRefused(t *testing.T) {
	inner := memory.New()
	b := encrypted.New(inner, cipherFor(t, mainConfig))
	ctx := context.Background()
	if _, err := b.WriteCAS(ctx, record(t, "a", "secret-a")); err != nil {
		t.Fatal(err)
	}
	stolen, err := inner.Read(ctx, store.StrongConsistency, record(t, "a", "").GetId())
	if err != nil {
		t.Fatal(err)
	}
	forged := record(t, "b", "")
	forged.Data = stolen.GetData()
	if _, err := inner.WriteCAS(ctx, forged); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Read(ctx, store.StrongConsistency, forged.GetId()); err == nil || !strings.Contains(err.Error(), "copied from another record") {
		t.Fatalf("data copied from record a was read as record b: %v", err)
	}
}

func TestRewriteRotatesKeysAndKeepsGenerations(t *testing.T) {
	inner := memory.New()
	ctx := context.Background()
	old := encrypted.New(inner, cipherFor(t, pbkdf2State("old", "the old passphrase!")+`state { method = method.aes_gcm.old }`))
	for _, name := range []string{"a", "b", "c"} {
		if _, err := old.WriteCAS(ctx, record(t, name, "secret-"+name)); err != nil {
			t.Fatal(err)
		}
	}
	rotated := encrypted.New(inner, cipherFor(t, pbkdf2State("old", "the old passphrase!")+pbkdf2State("new", "the new passphrase!")+`
state {
  method = method.aes_gcm.new
  fallback { method = method.aes_gcm.old }
}`))
	result, err := rotated.Rewrite(ctx, instanceType, &pbresource.Tenancy{Partition: "p", Namespace: "w"})
	if err != nil || result.Rewritten != 3 || result.Current != 0 {
		t.Fatalf("rewrite: %+v, %v", result, err)
	}
	again, err := rotated.Rewrite(ctx, instanceType, &pbresource.Tenancy{Partition: "p", Namespace: "w"})
	if err != nil || again.Rewritten != 0 || again.Current != 3 {
		t.Fatalf("a second rewrite: %+v, %v", again, err)
	}
	newOnly := encrypted.New(inner, cipherFor(t, pbkdf2State("new", "the new passphrase!")+`state { method = method.aes_gcm.new }`))
	list, err := newOnly.List(ctx, store.StrongConsistency, instanceType, nil, "")
	if err != nil || len(list) != 3 {
		t.Fatalf("the new key alone reads %d records, %v", len(list), err)
	}
	for _, res := range list {
		if res.GetGeneration() != "g1" {
			t.Errorf("%s: rewriting changed the generation to %q", res.GetId().GetName(), res.GetGeneration())
		}
	}
	if _, err := old.List(ctx, store.StrongConsistency, instanceType, nil, ""); err == nil {
		t.Errorf("the old key still reads the rewritten records")
	}
}

// TestNilRecordCipherStoresPlain: a nil record cipher is no encryption,
// as a command without a state target uses it.
func TestNilRecordCipherStoresPlain(t *testing.T) {
	var cipher *encryption.RecordCipher
	b := encrypted.New(memory.New(), cipher)
	ctx := context.Background()
	if _, err := b.WriteCAS(ctx, record(t, "a", "plain-a")); err != nil {
		t.Fatal(err)
	}
	got, err := b.Read(ctx, store.StrongConsistency, record(t, "a", "").GetId())
	if err != nil {
		t.Fatal(err)
	}
	var s wrapperspb.StringValue
	if err := got.GetData().UnmarshalTo(&s); err != nil || s.GetValue() != "plain-a" {
		t.Fatalf("read back %q, %v", s.GetValue(), err)
	}
}

// TestAlteredRecordIsRefusedByName: one changed byte of a record's
// ciphertext fails authentication; the error names the record and the key
// provider, and a listing returns no record rather than those that
// decrypted.
func TestAlteredRecordIsRefusedByName(t *testing.T) {
	inner := memory.New()
	b := encrypted.New(inner, cipherFor(t, mainConfig))
	ctx := context.Background()
	for _, name := range []string{"a", "b"} {
		if _, err := b.WriteCAS(ctx, record(t, name, "secret-"+name)); err != nil {
			t.Fatal(err)
		}
	}
	stored, err := inner.Read(ctx, store.StrongConsistency, record(t, "b", "").GetId())
	if err != nil {
		t.Fatal(err)
	}
	var sealed recordsv1.Encrypted
	if err := stored.GetData().UnmarshalTo(&sealed); err != nil {
		t.Fatal(err)
	}
	sealed.EncryptedData[len(sealed.EncryptedData)/2] ^= 0x01
	altered, err := anypb.New(&sealed)
	if err != nil {
		t.Fatal(err)
	}
	stored.Data = altered
	if _, err := inner.WriteCAS(ctx, stored); err != nil {
		t.Fatal(err)
	}
	_, err = b.Read(ctx, store.StrongConsistency, stored.GetId())
	if err == nil {
		t.Fatal("an altered record was read")
	}
	for _, want := range []string{`resource instance record "b"`, "method.aes_gcm.main", "key_provider.pbkdf2.main"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	if list, err := b.List(ctx, store.StrongConsistency, instanceType, nil, ""); err == nil || list != nil {
		t.Errorf("listing with an altered record returned %d records, %v", len(list), err)
	}
}
