/**
 * The API server's per-kind write preparation for {@code resource.k8s.io/v1}: dropping fields of
 * disabled feature gates ({@link io.jdra.api.strategy.DropDisabledFields}), status/spec resets and
 * generation handling ({@code *Strategy} classes), and the admin-access namespace check. All pure
 * functions over fabric8 models.
 */
package io.jdra.api.strategy;
