-- Photo first (issue 23, docs/decisions/0038): members with a public main photo (an approved photo
-- chosen as main) come before those without in search, the showcases, the swipe game and the
-- match-finder. `has_photo` stores that fact on the profile so the search indexes can yield rows in
-- that order; the triggers keep it in step with every way a main photo changes or is approved,
-- rejected or deleted (the services, the operators' photo script, the seed), each a primary-key
-- update of the one profile concerned.
ALTER TABLE `profiles` ADD `has_photo` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE `profiles` SET `has_photo` = 1
WHERE EXISTS (SELECT 1 FROM `photos` WHERE `photos`.`id` = `profiles`.`main_photo_id` AND `photos`.`status` = 'active');--> statement-breakpoint
DROP INDEX IF EXISTS `profiles_search_idx`;--> statement-breakpoint
DROP INDEX IF EXISTS `profiles_search_any_gender_idx`;--> statement-breakpoint
DROP INDEX IF EXISTS `profiles_search_region_idx`;--> statement-breakpoint
CREATE INDEX `profiles_search_idx` ON `profiles` (`country`,`searchable`,`gender`,`has_photo`,`last_active_at`);--> statement-breakpoint
CREATE INDEX `profiles_search_any_gender_idx` ON `profiles` (`country`,`searchable`,`has_photo`,`last_active_at`);--> statement-breakpoint
CREATE INDEX `profiles_search_region_idx` ON `profiles` (`region_id`,`searchable`,`gender`,`has_photo`,`last_active_at`);--> statement-breakpoint
CREATE TRIGGER `profiles_has_photo_main` AFTER UPDATE OF `main_photo_id` ON `profiles`
BEGIN
	UPDATE `profiles` SET `has_photo` = EXISTS (SELECT 1 FROM `photos` WHERE `id` = NEW.`main_photo_id` AND `status` = 'active')
	WHERE `id` = NEW.`id` AND `has_photo` != EXISTS (SELECT 1 FROM `photos` WHERE `id` = NEW.`main_photo_id` AND `status` = 'active');
END;--> statement-breakpoint
CREATE TRIGGER `photos_has_photo_status` AFTER UPDATE OF `status` ON `photos`
WHEN (OLD.`status` = 'active') != (NEW.`status` = 'active')
BEGIN
	UPDATE `profiles` SET `has_photo` = (NEW.`status` = 'active') WHERE `id` = NEW.`profile_id` AND `main_photo_id` = NEW.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `photos_has_photo_insert` AFTER INSERT ON `photos`
WHEN NEW.`status` = 'active'
BEGIN
	UPDATE `profiles` SET `has_photo` = 1 WHERE `id` = NEW.`profile_id` AND `main_photo_id` = NEW.`id`;
END;--> statement-breakpoint
CREATE TRIGGER `photos_has_photo_delete` AFTER DELETE ON `photos`
WHEN OLD.`status` = 'active'
BEGIN
	UPDATE `profiles` SET `has_photo` = 0 WHERE `id` = OLD.`profile_id` AND `main_photo_id` = OLD.`id`;
END;
