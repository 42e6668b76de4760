package recordstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/terrane/terrane/internal/addrs"
	"github.com/terrane/terrane/internal/resourceservice"
	"github.com/terrane/terrane/internal/resourceservice/records"
	"github.com/terrane/terrane/internal/states"
	"github.com/terrane/terrane/internal/store"
	"github.com/terrane/terrane/proto/pbresource"
	"github.com/terrane/terrane/proto/terrane/recordsv1"
)

// Store is one workspace's state in a ResourceService. It is safe for
// concurrent use.
type Store struct {
	service   *resourceservice.Service
	project   string
	workspace string
}

// New returns the store of workspace in project. The service's registry
// must have the record types (records.Register).
func New(service *resourceservice.Service, project, workspace string) *Store {
	return &Store{service: service, project: project, workspace: workspace}
}

// Service returns the service the records are kept through.
func (s *Store) Service() *resourceservice.Service { return s.service }

// Tenancy returns the project and workspace of the records.
func (s *Store) Tenancy() (project, workspace string) { return s.project, s.workspace }

// RecordVersion identifies one stored revision of a record: Generation
// changes when its content changes, Version on any write (seed 001).
type RecordVersion struct {
	Uid        string
	Generation string
	Version    string
}

func versionOf(res *pbresource.Resource) RecordVersion {
	return RecordVersion{Uid: res.GetId().GetUid(), Generation: res.GetGeneration(), Version: res.GetVersion()}
}

// Workspace is the workspace record's content and version.
type Workspace struct {
	Lineage          string
	Serial           int64
	EngineVersion    string
	CheckResultsJSON []byte
	// TakenInSerial is the serial of the last state file of Lineage taken
	// in (0 when none was, or before this was recorded).
	TakenInSerial int64
	Record        RecordVersion

	// stored is the record's content, so an update keeps what it does not
	// change.
	stored *recordsv1.Workspace
}

// next returns a copy of the stored content for an update.
func (ws *Workspace) next() *recordsv1.Workspace {
	if ws.stored == nil {
		return &recordsv1.Workspace{}
	}
	return proto.Clone(ws.stored).(*recordsv1.Workspace)
}

// EnsureWorkspace returns the workspace record, creating it with a new
// lineage on first use.
func (s *Store) EnsureWorkspace(ctx context.Context) (*Workspace, error) {
	res, err := s.service.Read(ctx, store.StrongConsistency, s.workspaceID())
	if status.Code(err) == codes.NotFound {
		return s.writeWorkspace(ctx, &recordsv1.Workspace{Lineage: uuid.NewString()}, "")
	}
	if err != nil {
		return nil, fmt.Errorf("reading workspace %q of project %q: %w", s.workspace, s.project, err)
	}
	return decodeWorkspace(res)
}

// BeginRun increments the workspace's serial for an apply run and records
// the engine version, creating the workspace record if needed. Concurrent
// runs each get their own serial.
func (s *Store) BeginRun(ctx context.Context, engineVersion string) (*Workspace, error) {
	for {
		ws, err := s.EnsureWorkspace(ctx)
		if err != nil {
			return nil, err
		}
		next := ws.next()
		next.Serial, next.EngineVersion = ws.Serial+1, engineVersion
		updated, err := s.writeWorkspace(ctx, next, ws.Record.Version)
		if status.Code(err) == codes.Aborted && ctx.Err() == nil {
			continue // another run took this serial; take the next
		}
		return updated, err
	}
}

// SetWorkspaceMetadata replaces the workspace's lineage, serial and check
// results, as importing a state file does. takenInSerial is the serial of
// the file taken in.
func (s *Store) SetWorkspaceMetadata(ctx context.Context, lineage string, serial, takenInSerial int64, checkResultsJSON []byte) (*Workspace, error) {
	ws, err := s.EnsureWorkspace(ctx)
	if err != nil {
		return nil, err
	}
	next := ws.next()
	next.Lineage, next.Serial, next.TakenInSerial, next.CheckResultsJson = lineage, serial, takenInSerial, checkResultsJSON
	return s.writeWorkspace(ctx, next, ws.Record.Version)
}

// SetCheckResults replaces the check results the workspace keeps (a state
// v4 "check_results" array; nil for none), as an apply records them. It
// retries when another run updated the workspace record meanwhile.
func (s *Store) SetCheckResults(ctx context.Context, checkResultsJSON []byte) error {
	for {
		ws, err := s.EnsureWorkspace(ctx)
		if err != nil {
			return err
		}
		if bytes.Equal(ws.CheckResultsJSON, checkResultsJSON) {
			return nil
		}
		next := ws.next()
		next.CheckResultsJson = checkResultsJSON
		_, err = s.writeWorkspace(ctx, next, ws.Record.Version)
		if status.Code(err) == codes.Aborted && ctx.Err() == nil {
			continue
		}
		return err
	}
}

func (s *Store) writeWorkspace(ctx context.Context, ws *recordsv1.Workspace, version string) (*Workspace, error) {
	data, err := anypb.New(ws)
	if err != nil {
		return nil, err
	}
	res, err := s.service.Write(ctx, &pbresource.Resource{Id: s.workspaceID(), Version: version, Data: data})
	if err != nil {
		return nil, fmt.Errorf("writing workspace %q of project %q: %w", s.workspace, s.project, err)
	}
	return decodeWorkspace(res)
}

func decodeWorkspace(res *pbresource.Resource) (*Workspace, error) {
	var ws recordsv1.Workspace
	if err := res.GetData().UnmarshalTo(&ws); err != nil {
		return nil, fmt.Errorf("workspace record %q: %w", res.GetId().GetName(), err)
	}
	return &Workspace{
		Lineage: ws.GetLineage(), Serial: ws.GetSerial(), EngineVersion: ws.GetEngineVersion(),
		CheckResultsJSON: ws.GetCheckResultsJson(), TakenInSerial: ws.GetTakenInSerial(), Record: versionOf(res),
		stored: &ws,
	}, nil
}

func (s *Store) workspaceID() *pbresource.ID { return records.WorkspaceID(s.project, s.workspace) }

// Snapshot is a workspace's whole state as loaded, with the version of
// every record it came from, keyed by instance address string, so that
// later writes can compare-and-swap against exactly what was read.
type Snapshot struct {
	State            *states.State
	Workspace        *Workspace
	InstanceVersions map[string]RecordVersion
}

// Load reads a workspace's whole state. Object attributes stay encoded
// until the engine decodes them with their schema. A workspace with no
// record yet loads as an empty state with a nil Workspace.
func (s *Store) Load(ctx context.Context) (*Snapshot, error) {
	snap := &Snapshot{State: states.NewState(), InstanceVersions: map[string]RecordVersion{}}
	ws, err := s.service.Read(ctx, store.StrongConsistency, s.workspaceID())
	switch {
	case status.Code(err) == codes.NotFound:
	case err != nil:
		return nil, fmt.Errorf("reading workspace %q of project %q: %w", s.workspace, s.project, err)
	default:
		if snap.Workspace, err = decodeWorkspace(ws); err != nil {
			return nil, err
		}
		snap.State.CheckResultsJSON = snap.Workspace.CheckResultsJSON
	}
	tenancy := records.Tenancy(s.project, s.workspace)
	var errs []error
	// One record at a time: a large workspace's stored records are never
	// all held beside the state decoded from them.
	err = s.service.ListEach(ctx, store.StrongConsistency, records.ResourceInstanceType, tenancy, "", func(res *pbresource.Resource) error {
		addr, provider, inst, err := decodeInstance(res)
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		snap.State.SetResourceInstance(addr, inst, provider)
		snap.InstanceVersions[addr.String()] = versionOf(res)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("listing the resource instances of workspace %q: %w", s.workspace, err)
	}
	outputs, err := s.service.List(ctx, store.StrongConsistency, records.OutputType, tenancy, "")
	if err != nil {
		return nil, fmt.Errorf("listing the outputs of workspace %q: %w", s.workspace, err)
	}
	for _, res := range outputs {
		var rec recordsv1.Output
		if err := res.GetData().UnmarshalTo(&rec); err != nil {
			errs = append(errs, fmt.Errorf("output record %q: %w", res.GetId().GetName(), err))
			continue
		}
		output, err := OutputFromRecord(&rec)
		if err != nil {
			errs = append(errs, fmt.Errorf("output record %q: %w", res.GetId().GetName(), err))
			continue
		}
		snap.State.Outputs[res.GetId().GetName()] = output
	}
	return snap, errors.Join(errs...)
}

func decodeInstance(res *pbresource.Resource) (addrs.AbsResourceInstance, addrs.AbsProviderConfig, *states.ResourceInstance, error) {
	var rec recordsv1.ResourceInstance
	if err := res.GetData().UnmarshalTo(&rec); err != nil {
		return addrs.AbsResourceInstance{}, addrs.AbsProviderConfig{}, nil, fmt.Errorf("resource instance record %q: %w", res.GetId().GetName(), err)
	}
	addr, provider, inst, err := InstanceFromRecord(&rec)
	if err == nil && addr.String() != res.GetId().GetName() {
		err = fmt.Errorf("resource instance record %q holds the instance %s; the record is damaged, fix or delete it", res.GetId().GetName(), addr)
	}
	return addr, provider, inst, err
}

// InstanceRecord is one instance as ReadInstance returns it.
type InstanceRecord struct {
	Addr           addrs.AbsResourceInstance
	ProviderConfig addrs.AbsProviderConfig
	Instance       *states.ResourceInstance
	Record         RecordVersion
}

// ReadInstance reads the instance at addr, or returns nil when there is no
// record of it.
func (s *Store) ReadInstance(ctx context.Context, addr addrs.AbsResourceInstance) (*InstanceRecord, error) {
	res, err := s.service.Read(ctx, store.StrongConsistency, records.InstanceID(s.project, s.workspace, addr.String()))
	if status.Code(err) == codes.NotFound {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", addr, err)
	}
	_, provider, inst, err := decodeInstance(res)
	if err != nil {
		return nil, err
	}
	return &InstanceRecord{Addr: addr, ProviderConfig: provider, Instance: inst, Record: versionOf(res)}, nil
}

// marshalRecord packs msg as a record of workspace s with the given name.
func (s *Store) marshalRecord(id *pbresource.ID, msg proto.Message, version string) (*pbresource.Resource, error) {
	data, err := anypb.New(msg)
	if err != nil {
		return nil, err
	}
	return &pbresource.Resource{Id: id, Owner: s.workspaceID(), Version: version, Data: data}, nil
}
