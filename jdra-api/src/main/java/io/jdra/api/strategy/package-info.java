/**
 * The API server's per-kind write preparation for {@code resource.k8s.io/v1}: dropping fields of
 * disabled feature gates ({@link io.jdra.api.strategy.DropDisabledFields}), status/spec resets and
 * generation handling ({@code *Strategy} classes), and the admin-access namespace check. All pure
 * functions over fabric8 models.
 *
 * <p>The API server applies them to a write in upstream's order: decode the body and apply {@link
 * io.jdra.api.defaulting.Defaults}; then {@code XStrategy.prepareForCreate / prepareForUpdate /
 * prepareForStatusUpdate} (which also drops disabled fields); then {@link
 * io.jdra.api.strategy.AdminAccessCheck} (claims and templates) together with {@code
 * io.jdra.api.validation.Validation}; then store.
 */
package io.jdra.api.strategy;
