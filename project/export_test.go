package project

// WithBuildBatches makes opts' search index builds and updates write
// batches of about batch documents (instead of buildBatch) and call held
// with how many documents they hold that are not yet written, whenever
// that changes (see fillIndex).
func WithBuildBatches(opts *Options, batch int, held func(n int)) {
	opts.batchDocs, opts.heldDocs = batch, held
}

// WithBatchWrites makes opts' search index builds and updates call
// writing before they write each batch (see fillIndex).
func WithBatchWrites(opts *Options, writing func()) {
	opts.writingBatch = writing
}
