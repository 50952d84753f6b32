/**
 * Test object builders shared by every module's tests: {@link io.jdra.testing.objects.Make} and its
 * wrappers, named as upstream's {@code pkg/scheduler/testing/wrappers.go}. Depends only on the
 * fabric8 models.
 */
package io.jdra.testing.objects;
