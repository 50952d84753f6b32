/**
 * DRA feature gates with their Kubernetes 1.36 stages and defaults, and the {@code --feature-gates}
 * syntax.
 */
package io.jdra.api.features;
