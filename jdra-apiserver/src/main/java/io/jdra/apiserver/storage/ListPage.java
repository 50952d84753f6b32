package io.jdra.apiserver.storage;

import java.util.List;

/**
 * One page of a list.
 *
 * @param items the objects, ordered by key
 * @param version the cluster-wide resourceVersion the list is consistent with
 * @param nextKey the key to continue after, or null when this is the last page
 * @param remaining how many more matching objects follow (0 on the last page)
 */
public record ListPage(List<StoredObject> items, long version, String nextKey, long remaining) {}
