package io.jdra.runtime.cache;

import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import io.fabric8.kubernetes.client.informers.cache.Indexer;
import java.util.List;
import java.util.Optional;

/**
 * Read access to an informer's cache (client-go listers). Objects returned are the cached
 * instances: treat them as immutable, copy before changing (fabric8's {@code new
 * XBuilder(obj).build()} or {@code edit}).
 */
public interface Lister<T> {
  /** The object with this namespace and name (namespace null or "" for cluster-scoped types). */
  Optional<T> get(String namespace, String name);

  /** All cached objects. */
  List<T> list();

  /** The cached objects of one namespace. */
  List<T> list(String namespace);

  /** The objects whose index function gave {@code key} for the index {@code indexName}. */
  List<T> byIndex(String indexName, String key);

  /** A lister over the informer's indexer. */
  static <T> Lister<T> of(SharedIndexInformer<T> informer) {
    return of(informer.getIndexer());
  }

  static <T> Lister<T> of(Indexer<T> indexer) {
    return new Lister<>() {
      @Override
      public Optional<T> get(String namespace, String name) {
        String key =
            namespace == null || namespace.isEmpty()
                ? name
                : Cache.namespaceKeyFunc(namespace, name);
        return Optional.ofNullable(indexer.getByKey(key));
      }

      @Override
      public List<T> list() {
        return indexer.list();
      }

      @Override
      public List<T> list(String namespace) {
        return indexer.byIndex(Cache.NAMESPACE_INDEX, namespace);
      }

      @Override
      public List<T> byIndex(String indexName, String key) {
        return indexer.byIndex(indexName, key);
      }
    };
  }
}
