"""What a campaign keeps of its play, read back: the journal and the replay
of a session, the dice statistics, a viewer's throws of a session and their
verification, and the backups (export and import of a whole campaign).
Everything here reads the table's log and rows; the table never imports it."""
