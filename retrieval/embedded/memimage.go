package embedded

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
)

// emptyImage is the serialized form (sqlite3_serialize) of an empty
// database of this build's schema: an in-memory Backend starts as a copy of
// it (sqlite3_deserialize) instead of running the schema's statements,
// which took about 1 ms of every ephemeral prompt catalog. It is computed
// once per process from the constant schema and never changes afterwards.
var emptyImage struct {
	once sync.Once
	buf  []byte
	err  error
}

// serializer and deserializer are the modernc.org/sqlite connection's
// methods (conn.Serialize, conn.Deserialize), reached through sql.Conn.Raw.
type serializer interface{ Serialize() ([]byte, error) }
type deserializer interface{ Deserialize([]byte) error }

// errNoImage: the driver cannot serialize or deserialize a database.
var errNoImage = errors.New("embedded: the sqlite driver cannot (de)serialize a database")

// schemaImage returns the empty database image, making it on first use.
func schemaImage(ctx context.Context) ([]byte, error) {
	emptyImage.once.Do(func() {
		emptyImage.buf, emptyImage.err = makeImage(context.WithoutCancel(ctx))
	})
	return emptyImage.buf, emptyImage.err
}

// makeImage creates the schema in a private in-memory database the usual
// way (init) and serializes it.
func makeImage(ctx context.Context) ([]byte, error) {
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		return nil, err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	b := &Backend{db: db}
	if err := b.init(ctx); err != nil {
		return nil, err
	}
	return serialize(ctx, db)
}

// serialize returns the bytes of sqlite3_serialize of db's one
// in-memory database; errNoImage when the driver cannot serialize or
// gives no bytes.
func serialize(ctx context.Context, db *sql.DB) ([]byte, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	var buf []byte
	err = conn.Raw(func(dc any) error {
		s, ok := dc.(serializer)
		if !ok {
			return errNoImage
		}
		var err error
		buf, err = s.Serialize()
		return err
	})
	if err == nil && len(buf) == 0 {
		err = fmt.Errorf("%w: empty image", errNoImage)
	}
	return buf, err
}

// startFromImage makes the one connection of the in-memory database db a
// copy of the empty schema image with a vector store identity of its own.
// On an error db is unchanged (still empty), and the caller creates the
// schema the usual way.
func startFromImage(ctx context.Context, db *sql.DB) error {
	img, err := schemaImage(ctx)
	if err != nil {
		return err
	}
	return startFrom(ctx, db, img)
}

// startFrom makes the one connection of the in-memory database db a copy
// of img (the driver copies the bytes) with a vector store identity of its
// own.
func startFrom(ctx context.Context, db *sql.DB, img []byte) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	err = conn.Raw(func(dc any) error {
		d, ok := dc.(deserializer)
		if !ok {
			return errNoImage
		}
		return d.Deserialize(img)
	})
	if err != nil {
		return err
	}
	_, err = conn.ExecContext(ctx, "UPDATE vector_store SET uid = lower(hex(randomblob(8))) WHERE id = 0")
	return err
}

// WithImage makes an in-memory Backend start as a copy of img, the bytes
// Image returned for an in-memory Backend of this build, instead of empty:
// a prompt catalog built from the same units again opens the same index
// this way instead of writing it. The copy is independent of img and of
// the Backend img came from; it gets a vector store identity of its own.
// Ignored for a file database. Open fails if the driver cannot load img;
// an image of another schema version is treated as Open treats such a
// file.
func WithImage(img []byte) Option {
	return func(o *options) { o.image = img }
}

// Image returns a copy of an in-memory Backend's database (the bytes of
// sqlite3_serialize), for WithImage. It fails for a file database and when
// the driver cannot serialize. Call it with no search or write running on
// the Backend (an in-memory Backend has one connection: Image waits for
// it).
func (b *Backend) Image(ctx context.Context) ([]byte, error) {
	if b.path != "" {
		return nil, fmt.Errorf("embedded: Image of the file database %q: only an in-memory database has one", b.path)
	}
	buf, err := serialize(ctx, b.db)
	if err != nil {
		return nil, fmt.Errorf("embedded: Image: %w", err)
	}
	return buf, nil
}
