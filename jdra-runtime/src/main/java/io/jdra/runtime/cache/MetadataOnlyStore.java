package io.jdra.runtime.cache;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.informers.cache.BasicItemStore;
import io.fabric8.kubernetes.client.informers.cache.Cache;

/**
 * An informer store that keeps only type and metadata of each object, as client-go's metadata
 * informers see {@code PartialObjectMetadata}: a cluster's pods, claims and slices held by a
 * metadata reader cost their metadata, not their specs.
 */
final class MetadataOnlyStore extends BasicItemStore<GenericKubernetesResource> {
  MetadataOnlyStore() {
    super(Cache::metaNamespaceKeyFunc);
  }

  @Override
  public GenericKubernetesResource put(String key, GenericKubernetesResource obj) {
    return super.put(key, metadataOnly(obj));
  }

  static GenericKubernetesResource metadataOnly(GenericKubernetesResource obj) {
    GenericKubernetesResource m = new GenericKubernetesResource();
    m.setApiVersion(obj.getApiVersion());
    m.setKind(obj.getKind());
    // A copy: the informer hands the full object to handlers, which must not see it change.
    m.setMetadata(new ObjectMetaBuilder(obj.getMetadata()).withManagedFields().build());
    return m;
  }
}
