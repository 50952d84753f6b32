/**
 * Informers, listers and caches: {@link io.jdra.runtime.cache.InformerFactory} (shared fabric8
 * informers), {@link io.jdra.runtime.cache.Handlers} (handlers removed on context cancellation),
 * {@link io.jdra.runtime.cache.Lister}.
 */
package io.jdra.runtime.cache;
