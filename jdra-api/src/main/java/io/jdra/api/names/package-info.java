/** Names used across DRA: qualified attribute/capacity names and device IDs. */
package io.jdra.api.names;
