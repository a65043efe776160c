// Package das reads the stored state behind digital assets: for a set of
// asset ids, the newest write of every account of each asset (and of the
// accounts found by address, such as edition PDAs) and every Bubblegum
// event of each compressed asset, in one statement.
package assetrows
