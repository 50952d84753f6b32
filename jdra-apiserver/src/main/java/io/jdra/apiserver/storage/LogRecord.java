package io.jdra.apiserver.storage;

/**
 * One durable write: the new state of a key or its deletion.
 *
 * @param resource the resource key ({@code group/plural})
 * @param object the stored object; for a deletion, its last state at the deletion's version
 * @param deleted whether this removes the key
 */
public record LogRecord(String resource, StoredObject object, boolean deleted) {}
