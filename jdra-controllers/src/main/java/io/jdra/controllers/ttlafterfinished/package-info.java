/**
 * kube-controller-manager's TTL-after-finished controller ({@code
 * pkg/controller/ttlafterfinished}), registered as {@code ttl-after-finished-controller}: deletes
 * finished Jobs {@code ttlSecondsAfterFinished} after they finished, in the foreground.
 */
package io.jdra.controllers.ttlafterfinished;
